import { defineModule, route } from '../../http/routes.ts';

// The role editor's tree (contract §4.1), derived from the plugins' manifests; who may read it is declared there too
// (identity grants it to role-detail, role-add and role-edit).
export default defineModule('menus', ({ catalogue }) => [route({ method: 'GET', path: '/menus', allow: 'granted', handler: () => catalogue.tree })]);
