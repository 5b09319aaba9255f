import { defineManifest, type KeyMap } from '@/shared/manifest';

// 个人中心 is a top-level entry (core's `info` slot, last in the menu). Its calls are /account/*, open to every
// signed-in user, so the key grants no route: it only shows the page.
const manifest = defineManifest({
  id: 'info',
  menus: [{ key: 'info', group: 'info', label: { 'zh-CN': '个人中心', 'en-US': 'My account' } }],
});
export default manifest;

declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof manifest> {}
}
