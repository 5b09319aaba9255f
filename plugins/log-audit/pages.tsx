// The lazy facade: this module becomes the chunk static/plugin-log-audit-*.js.
export { LoginLogList } from './components/LoginLogList';
export { OperationLogList } from './components/OperationLogList';
export { StorageLogList } from './components/StorageLogList';
