// The lazy facade: one named export per page; this module becomes static/plugin-identity-*.js.
export { RoleDetail } from './components/RoleDetail';
export { RoleList } from './components/RoleList';
export { UserDetail } from './components/UserDetail';
export { UserGroupDetail } from './components/UserGroupDetail';
export { UserGroupList } from './components/UserGroupList';
export { UserList } from './components/UserList';
