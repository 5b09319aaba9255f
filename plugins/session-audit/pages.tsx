// The lazy facade of the plugin's chunk (plugin-session-audit-*.js): one export per page.
export { OfflineSessionList } from './components/OfflineSessionList';
export { OnlineSessionList } from './components/OnlineSessionList';
export { TermPlayback } from './components/playback/TermPlayback';
export { TermMonitor } from './components/TermMonitor';
