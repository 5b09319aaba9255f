import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CheckTree, type CheckTreeNode, checkedValues, computeCheckState } from '../../../core/ui';
import { renderUi } from './render';

const nodes: CheckTreeNode[] = [
  {
    value: 'a',
    label: 'A',
    children: [
      { value: 'a1', label: 'A1', children: [{ value: 'a1x', label: 'A1x' }, { value: 'a1y', label: 'A1y' }] },
      { value: 'a2', label: 'A2' },
    ],
  },
  { value: 'b', label: 'B', children: null },
];

function Controlled({ initial, onChange }: { initial: string[]; onChange?: (v: string[]) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <CheckTree
      aria-label="权限"
      nodes={nodes}
      value={value}
      defaultOpenDepth={2}
      onChange={(v) => {
        setValue(v);
        onChange?.(v);
      }}
    />
  );
}

const item = (label: string) => screen.getByRole('treeitem', { name: label });
const box = (label: string) => within(item(label)).getAllByRole('checkbox')[0] as HTMLElement;

describe('computeCheckState', () => {
  it('derives parents from leaves and cascades a listed parent', () => {
    const s = computeCheckState(nodes, ['a1x']);
    expect(s.get('a1x')).toBe(true);
    expect(s.get('a1')).toBe('mixed');
    expect(s.get('a')).toBe('mixed');
    expect(s.has('a2')).toBe(false);
    const all = computeCheckState(nodes, ['a1', 'a2', 'zzz']);
    expect(checkedValues(nodes, all)).toEqual(['a', 'a1', 'a1x', 'a1y', 'a2']);
    expect(checkedValues(nodes, computeCheckState(nodes, ['b']))).toEqual(['b']);
  });
});

describe('CheckTree', () => {
  it('shows checked and mixed states and cascades clicks', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<Controlled initial={['a1x']} onChange={onChange} />);
    expect(screen.getByRole('tree', { name: '权限' })).toBeInTheDocument();
    expect(item('A')).toHaveAttribute('aria-checked', 'mixed');
    expect(item('A1')).toHaveAttribute('aria-checked', 'mixed');
    expect(item('A1x')).toHaveAttribute('aria-checked', 'true');
    expect(item('A2')).toHaveAttribute('aria-checked', 'false');

    await user.click(box('A'));
    expect(onChange).toHaveBeenLastCalledWith(['a', 'a1', 'a1x', 'a1y', 'a2']);
    await waitFor(() => expect(item('A')).toHaveAttribute('aria-checked', 'true'));

    await user.click(box('A1'));
    expect(onChange).toHaveBeenLastCalledWith(['a2']);
    expect(item('A')).toHaveAttribute('aria-checked', 'mixed');
  });

  it('toggles with Space on the focused item', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<Controlled initial={[]} onChange={onChange} />);
    item('B').focus();
    await user.keyboard(' ');
    expect(onChange).toHaveBeenLastCalledWith(['b']);
    await waitFor(() => expect(item('B')).toHaveAttribute('aria-checked', 'true'));
  });

  it('ignores changes when read-only', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<CheckTree readOnly aria-label="只读" nodes={nodes} value={['a2']} onChange={onChange} />);
    expect(item('A')).toHaveAttribute('aria-checked', 'mixed');
    expect(item('A')).toHaveAttribute('aria-disabled', 'true');
    expect(item('A')).not.toHaveAttribute('aria-readonly');
    await user.click(box('B'));
    expect(onChange).not.toHaveBeenCalled();
    expect(item('B')).toHaveAttribute('aria-checked', 'false');
  });

  it('marks a destructive permission with a warning badge, in its name too', () => {
    const tree: CheckTreeNode[] = [
      { value: 'log', label: '登录日志', children: [{ value: 'log-read', label: '查看' }, { value: 'log-del', label: '删除', destructive: true }] },
    ];
    renderUi(<CheckTree aria-label="权限" nodes={tree} value={[]} defaultOpenDepth={2} />);
    const danger = screen.getByRole('treeitem', { name: '删除（危险操作）' });
    expect(within(danger).getByText('危险操作')).toBeInTheDocument();
    expect(within(item('查看')).queryByText('危险操作')).toBeNull();
    expect(screen.queryByRole('treeitem', { name: '删除' })).toBeNull();
  });
});
