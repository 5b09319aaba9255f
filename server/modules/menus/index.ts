import { defineModule, route } from '../../http/routes.ts';
import { MENUS, type MenuKey } from './tree.ts';

export interface TreeMenu {
  title: string;
  titles: { 'zh-CN': string; 'en-US': string };
  key: MenuKey;
  children: TreeMenu[] | null;
}

/** The whole tree of §4.1 in its order; built once, it never changes at run time. */
export function menuTree(): TreeMenu[] {
  const nodes = new Map<string, TreeMenu>();
  for (const m of MENUS) nodes.set(m.key, { title: m.titles['zh-CN'], titles: m.titles, key: m.key, children: null });
  const roots: TreeMenu[] = [];
  for (const m of MENUS) {
    const node = nodes.get(m.key)!;
    const parent = m.parentId ? nodes.get(m.parentId) : undefined;
    if (!parent) roots.push(node);
    else {
      parent.children ??= [];
      parent.children.push(node);
    }
  }
  return roots;
}

export default defineModule('menus', () => {
  const tree = menuTree();
  // The role editor needs the tree: whoever may view, add or edit roles.
  return [route({ method: 'GET', path: '/menus', allow: ['role-detail', 'role-add', 'role-edit'], handler: () => tree })];
});
