// Type-level test, checked by `tsc` in `npm test` (never run): a permission key no manifest declares does not compile,
// wherever it is used. Each `@ts-expect-error` fails the type check if the line below it ever compiles.
import { AddButton, Can, definePlugin, type PermissionKey, type RowAction, useCan } from '@/core';
import { defineManifest } from '@/shared/manifest';
import { route } from '../../server/http/routes.ts';

export function useGates(): void {
  // Declared keys (identity's manifest, core's groups) compile…
  useCan('user-add', 'role-detail', 'identity');
  Can({ menu: ['user-del', 'user-edit'], children: null });
  const ok: PermissionKey = 'user-group-detail';

  // …an undeclared one does not: in the hook, the component, the kit's gates and a page's key.
  // @ts-expect-error 'user-ad' is declared by no manifest
  useCan('user-ad');
  // @ts-expect-error
  Can({ menu: 'user-ad', children: null });
  // @ts-expect-error
  Can({ menu: ['user-add', 'user-ad'], children: null });
  // @ts-expect-error
  const row: RowAction = { key: 'x', label: 'x', menu: 'user-ad', onClick: () => undefined };
  // @ts-expect-error
  AddButton({ menu: 'user-ad', onClick: () => undefined });
  // @ts-expect-error
  const bad: PermissionKey = 'job-add'; // no plugin declares jobs yet
  void [ok, row, bad];
}

const Typed = () => null;
export const page = definePlugin({
  id: 'typed',
  // @ts-expect-error a page's menuKey is a declared key
  pages: [{ menuKey: 'user-ad', path: '/typed', page: 'Typed', layout: 'admin' }],
  load: () => Promise.resolve({ Typed }),
});

// Server routes name no keys: a route is 'granted' and the manifests say which keys grant it.
export const granted = route({ method: 'GET', path: '/typed', allow: 'granted', handler: () => null });
// @ts-expect-error a route cannot allow a key list of its own, declared or not
export const undeclared = route({ method: 'GET', path: '/typed', allow: ['user-ad'], handler: () => null });

export const manifests = [
  defineManifest({
    id: 'typed',
    menus: [{ key: 'typed', group: 'ops', label: { 'zh-CN': '类型', 'en-US': 'Typed' } }],
    // @ts-expect-error an action's parent must be a key of the same manifest
    actions: [{ key: 'typed-add', parent: 'typo', label: { 'zh-CN': '增加', 'en-US': 'Add' } }],
  }),
  defineManifest({
    id: 'typed-2',
    // @ts-expect-error both languages are required
    menus: [{ key: 'typed-2', group: 'ops', label: { 'zh-CN': '类型' } }],
  }),
  defineManifest({
    id: 'typed-3',
    // @ts-expect-error a grant is "METHOD /path"
    menus: [{ key: 'typed-3', group: 'ops', label: { 'zh-CN': '类型', 'en-US': 'Typed' }, grants: ['/typed'] }],
  }),
];
