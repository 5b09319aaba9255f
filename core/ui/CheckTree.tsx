import { Badge, makeStyles, Tree, TreeItem, TreeItemLayout, type TreeItemValue, tokens } from '@fluentui/react-components';
import { WarningRegular } from '@fluentui/react-icons/svg/warning';
import { type ReactNode, useMemo, useState } from 'react';
import { useUiT } from './i18n';

const useStyles = makeStyles({
  root: { maxHeight: '420px', overflowY: 'auto', paddingRight: tokens.spacingHorizontalS },
  badge: { marginLeft: tokens.spacingHorizontalS },
});

export interface CheckTreeNode {
  value: string;
  /** Already translated. */
  label: string;
  children?: readonly CheckTreeNode[] | null;
  /** Shown with a 危险操作 warning badge (and named so): a permission that destroys records, e.g. deleting audit logs. */
  destructive?: boolean;
}

/** `true` = the node and every descendant checked, `'mixed'` = some descendants; unchecked nodes are absent. */
export type CheckState = ReadonlyMap<string, true | 'mixed'>;

function leavesOf(node: CheckTreeNode): string[] {
  if (!node.children || node.children.length === 0) return [node.value];
  return node.children.flatMap(leavesOf);
}

/**
 * The state of every node when `values` are checked. Checking a parent means all of its descendants, so the state
 * is derived from the leaves: a listed parent checks its whole branch, and a parent is checked when all of its leaves
 * are, mixed when some are. Values not in the tree are ignored.
 */
export function computeCheckState(nodes: readonly CheckTreeNode[], values: Iterable<string>): CheckState {
  const wanted = new Set(values);
  const leaves = new Set<string>();
  const collect = (node: CheckTreeNode, inherited: boolean) => {
    const on = inherited || wanted.has(node.value);
    if (!node.children || node.children.length === 0) {
      if (on) leaves.add(node.value);
    } else for (const child of node.children) collect(child, on);
  };
  for (const node of nodes) collect(node, false);

  const state = new Map<string, true | 'mixed'>();
  const visit = (node: CheckTreeNode): 'all' | 'some' | 'none' => {
    let result: 'all' | 'some' | 'none';
    if (!node.children || node.children.length === 0) result = leaves.has(node.value) ? 'all' : 'none';
    else {
      const parts = node.children.map(visit);
      result = parts.every((p) => p === 'all') ? 'all' : parts.every((p) => p === 'none') ? 'none' : 'some';
    }
    if (result === 'all') state.set(node.value, true);
    else if (result === 'some') state.set(node.value, 'mixed');
    return result;
  };
  for (const node of nodes) visit(node);
  return state;
}

/** The fully checked values of a state, in tree order (parents before their children). */
export function checkedValues(nodes: readonly CheckTreeNode[], state: CheckState): string[] {
  const out: string[] = [];
  const walk = (list: readonly CheckTreeNode[]) => {
    for (const node of list) {
      if (state.get(node.value) === true) out.push(node.value);
      if (node.children) walk(node.children);
    }
  };
  walk(nodes);
  return out;
}

function findNode(nodes: readonly CheckTreeNode[], value: string): CheckTreeNode | undefined {
  for (const node of nodes) {
    if (node.value === value) return node;
    const found = node.children ? findNode(node.children, value) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** Values of the nodes with children down to `depth` levels (1 = the roots). */
function branchesTo(nodes: readonly CheckTreeNode[], depth: number): string[] {
  if (depth <= 0) return [];
  return nodes
    .filter((n) => n.children && n.children.length > 0)
    .flatMap((n) => [n.value, ...branchesTo(n.children ?? [], depth - 1)]);
}

export interface CheckTreeProps {
  nodes: readonly CheckTreeNode[];
  /** Checked values (a listed parent checks its whole branch); parents' states are derived. */
  value: readonly string[];
  /** Receives every fully checked value in tree order, parents included. */
  onChange?: (value: string[]) => void;
  /** Shows the states, ignores changes (detail pages). */
  readOnly?: boolean;
  /** The tree's accessible name. */
  'aria-label'?: string;
  /** Levels expanded at first (default 1: the roots are open). */
  defaultOpenDepth?: number;
  className?: string;
}

/**
 * A checkable tree (Fluent `Tree`, multiselect): parents are mixed when some descendants are checked, and checking
 * a parent checks or clears its whole branch. Keyboard: arrows move and open/close, Space toggles.
 */
export function CheckTree({ nodes, value, onChange, readOnly, defaultOpenDepth = 1, className, ...rest }: CheckTreeProps) {
  const styles = useStyles();
  const t = useUiT();
  const state = useMemo(() => computeCheckState(nodes, value), [nodes, value]);
  const [open, setOpen] = useState<ReadonlySet<TreeItemValue>>(() => new Set(branchesTo(nodes, defaultOpenDepth)));

  const toggle = (target: string) => {
    if (readOnly || !onChange) return;
    const node = findNode(nodes, target);
    if (!node) return;
    // Work on leaves only: a listed parent would check its whole branch again.
    const branch = new Set(leavesOf(node));
    const current = nodes.flatMap(leavesOf).filter((leaf) => state.get(leaf) === true);
    // A fully checked node is cleared (with its branch); an unchecked or mixed one gets its whole branch.
    const next = state.get(target) === true ? current.filter((v) => !branch.has(v)) : [...current, ...branch];
    onChange(checkedValues(nodes, computeCheckState(nodes, next)));
  };

  const render = (list: readonly CheckTreeNode[]): ReactNode =>
    list.map((node) => {
      const branch = !!node.children && node.children.length > 0;
      return (
        // Named by its own label: by default a branch's name would run on through every descendant's text.
        <TreeItem
          key={node.value}
          value={node.value}
          itemType={branch ? 'branch' : 'leaf'}
          aria-label={node.destructive ? t('ui.destructive.named', { label: node.label }) : node.label}
          // Not aria-readonly: ARIA does not allow it on a tree item. Still focusable, so a read-only tree browses.
          aria-disabled={readOnly || undefined}
        >
          <TreeItemLayout selector={readOnly ? { disabled: true } : undefined}>
            {node.label}
            {node.destructive ? (
              <Badge className={styles.badge} appearance="tint" color="danger" size="small" icon={<WarningRegular />} title={t('ui.destructive.hint')}>
                {t('ui.destructive.badge')}
              </Badge>
            ) : null}
          </TreeItemLayout>
          {branch ? <Tree>{render(node.children ?? [])}</Tree> : null}
        </TreeItem>
      );
    });

  return (
    <Tree
      className={className ?? styles.root}
      aria-label={rest['aria-label']}
      selectionMode="multiselect"
      checkedItems={[...state.entries()]}
      onCheckedChange={(_, data) => toggle(String(data.value))}
      openItems={open}
      onOpenChange={(_, data) => setOpen(data.openItems)}
    >
      {render(nodes)}
    </Tree>
  );
}
