import { defineManifest, type KeyMap } from '@/shared/manifest';

// 个人中心 is a top-level entry (core's `info` slot, last in the menu). Its calls are /account/*, open to every
// signed-in user, so the key grants no route: it only shows the page.
const manifest = defineManifest({
  id: 'info',
  // The labels (labelKey) are strings of locales/<lng>/info.json, which the server reads from here.
  locales: import.meta.url,
  menus: [{ key: 'info', group: 'info', labelKey: 'nav.label' }],
});
export default manifest;

declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof manifest> {}
}
