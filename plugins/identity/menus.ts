import { type CheckState, type CheckTreeNode, computeCheckState } from '@/core';
import type { RoleMenuRef, TreeMenu } from './api';

/**
 * The server's menu tree as CheckTree nodes, labelled in the current language (the zh-CN title as fallback); a
 * destructive key (deleting audit records: no built-in role holds it) is marked, and the tree shows it with a warning.
 */
export function menuNodes(tree: readonly TreeMenu[], lng: string): CheckTreeNode[] {
  return tree.map((m) => ({
    value: m.key,
    label: m.titles?.[lng] ?? m.title,
    children: m.children ? menuNodes(m.children, lng) : null,
    ...(m.destructive ? { destructive: true } : {}),
  }));
}

/** Initially checked: the refs with `checked === true`; half-checked parents are recomputed by the tree. */
export function checkedFromRefs(refs: readonly RoleMenuRef[] | null | undefined): string[] {
  return (refs ?? []).filter((r) => r.checked === true).map((r) => r.menuId);
}

/**
 * The `menus` body of a role: in tree order, every fully checked key as `checked: true` and every partly checked
 * ancestor as `checked: false` (it grants the page that leads to the checked keys), each key once.
 */
export function refsFromChecked(nodes: readonly CheckTreeNode[], checked: readonly string[]): RoleMenuRef[] {
  const state: CheckState = computeCheckState(nodes, checked);
  const out: RoleMenuRef[] = [];
  const walk = (list: readonly CheckTreeNode[]) => {
    for (const node of list) {
      const s = state.get(node.value);
      if (s === true) out.push({ menuId: node.value, checked: true });
      else if (s === 'mixed') out.push({ menuId: node.value, checked: false });
      if (node.children) walk(node.children);
    }
  };
  walk(nodes);
  return out;
}
