import { AddButton, type RowAction, RowActions } from '@/core';
import { renderWithProviders } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { defineManifest, type KeyMap } from '@/shared/manifest';

// The gates below name these keys; declaring them is what makes them type-check.
const thing = defineManifest({
  id: 'fx-thing',
  menus: [{ key: 'thing', group: 'ops', label: { 'zh-CN': '物件', 'en-US': 'Things' } }],
  actions: (['thing-add', 'thing-edit', 'thing-del', 'thing-admin', 'thing-archive', 'thing-detail', 'nobody-has-this'] as const).map((key) => ({
    key,
    parent: 'thing' as const,
    label: { 'zh-CN': key, 'en-US': key },
  })),
});
declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof thing> {}
}

// A session holding exactly these menu keys.
const withMenus = (menus: string[]) => ({ session: { user: { menus } } });

describe('RowActions', () => {
  it('shows only the actions whose gate the user holds', async () => {
    const actions: RowAction[] = [
      { key: 'edit', label: '编辑', menu: 'thing-edit', onClick: vi.fn() },
      { key: 'del', label: '删除', menu: ['thing-del', 'thing-admin'], danger: true, onClick: vi.fn() },
      { key: 'open', label: '打开', href: '/thing/1' },
    ];
    const { unmount } = await renderWithProviders(<RowActions actions={actions} />, withMenus(['thing-admin']));
    expect(screen.queryByRole('button', { name: '编辑' })).toBeNull();
    expect(screen.getByRole('button', { name: '删除' })).toBeEnabled(); // any key of the list opens the gate
    expect(screen.getByRole('link', { name: '打开' })).toHaveAttribute('href', '/thing/1');
    unmount();

    const none = await renderWithProviders(
      <div data-testid="cell">
        <RowActions actions={actions.slice(0, 2)} />
      </div>,
      withMenus([]),
    );
    expect(none.getByTestId('cell')).toBeEmptyDOMElement();
  });

  it('runs a plain action at once and respects disabled', async () => {
    const edit = vi.fn();
    const view = vi.fn();
    const { user } = await renderWithProviders(
      <RowActions
        actions={[
          { key: 'edit', label: '编辑', onClick: edit },
          { key: 'view', label: '查看', disabled: true, onClick: view },
        ]}
      />,
    );
    await user.click(await screen.findByRole('button', { name: '编辑' }));
    expect(edit).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: '查看' })).toBeDisabled();
    await user.click(await screen.findByRole('button', { name: '查看' }));
    expect(view).not.toHaveBeenCalled();
  });

  it('asks the standard delete confirm first: 取消 runs nothing, 确认 runs the action', async () => {
    const remove = vi.fn(async () => {});
    const { user } = await renderWithProviders(
      <RowActions actions={[{ key: 'del', label: '删除', menu: 'thing-del', danger: true, confirm: true, onClick: remove }]} />,
      withMenus(['thing-del']),
    );
    await user.click(await screen.findByRole('button', { name: '删除' }));
    let dialog = within(await screen.findByRole('alertdialog'));
    expect(dialog.getByText('您确认要删除此行吗?')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(remove).not.toHaveBeenCalled();

    await user.click(await screen.findByRole('button', { name: '删除' }));
    dialog = within(await screen.findByRole('alertdialog'));
    await user.click(dialog.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(remove).toHaveBeenCalledTimes(1));
  });

  it('asks with a custom title and message', async () => {
    const reset = vi.fn();
    const { user } = await renderWithProviders(
      <RowActions actions={[{ key: 'reset', label: '重置', confirm: { title: '重置密钥?', message: '旧密钥将失效' }, onClick: reset }]} />,
    );
    await user.click(await screen.findByRole('button', { name: '重置' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: '重置密钥?' }));
    expect(dialog.getByText('旧密钥将失效')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(reset).toHaveBeenCalledTimes(1));
  });

  it('puts overflow actions in a labelled ⋯ menu, operable from the keyboard', async () => {
    const detail = vi.fn();
    const archive = vi.fn();
    const { user, location } = await renderWithProviders(
      <RowActions
        actions={[
          { key: 'edit', label: '编辑', onClick: vi.fn() },
          { key: 'detail', label: '详情', overflow: true, onClick: detail },
          { key: 'archive', label: '归档', overflow: true, menu: 'thing-archive', confirm: true, onClick: archive },
          { key: 'audit', label: '审计', overflow: true, href: '/audit?of=1' },
          { key: 'hidden', label: '隐藏', overflow: true, menu: 'nobody-has-this', onClick: vi.fn() },
        ]}
      />,
      withMenus(['thing-archive']),
    );
    // Overflow actions are not inline.
    expect(screen.queryByRole('button', { name: '详情' })).toBeNull();
    const more = screen.getByRole('button', { name: '更多操作' });
    await user.click(more);
    const menu = within(await screen.findByRole('menu'));
    expect(menu.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['详情', '归档', '审计']);
    await user.click(menu.getByRole('menuitem', { name: '详情' }));
    expect(detail).toHaveBeenCalledTimes(1);

    // Keyboard: open with Enter, move with arrows, pick with Enter; a confirm still guards the action.
    more.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('menu');
    await user.keyboard('{ArrowDown}{Enter}');
    const dialog = within(await screen.findByRole('alertdialog'));
    await user.click(dialog.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(archive).toHaveBeenCalledTimes(1));

    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    // The closed dialog's modal bookkeeping (aria-hidden on the rest) can outlive it by a tick on a busy run.
    await user.click(await screen.findByRole('button', { name: '更多操作' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: '审计' }));
    expect(location()).toMatchObject({ pathname: '/audit', search: '?of=1' });
  });

  it('omits the ⋯ button when no overflow action is visible', async () => {
    await renderWithProviders(
      <RowActions
        actions={[
          { key: 'edit', label: '编辑', onClick: vi.fn() },
          { key: 'detail', label: '详情', overflow: true, menu: 'thing-detail', onClick: vi.fn() },
        ]}
      />,
      withMenus([]),
    );
    expect(screen.getByRole('button', { name: '编辑' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '更多操作' })).toBeNull();
  });

  it('shows a single overflow action as a plain button (or link), not a ⋯ menu of one item', async () => {
    const detail = vi.fn();
    const { user, unmount } = await renderWithProviders(
      <RowActions
        actions={[
          { key: 'detail', label: '详情', overflow: true, onClick: detail },
          { key: 'edit', label: '编辑', onClick: vi.fn() },
          { key: 'archive', label: '归档', overflow: true, menu: 'nobody-has-this', onClick: vi.fn() },
        ]}
      />,
      withMenus(['thing-edit']),
    );
    expect(screen.queryByRole('button', { name: '更多操作' })).toBeNull();
    // After the inline ones, as it stood in the menu.
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['编辑', '详情']);
    await user.click(screen.getByRole('button', { name: '详情' }));
    expect(detail).toHaveBeenCalledTimes(1);
    unmount();

    await renderWithProviders(<RowActions actions={[{ key: 'audit', label: '审计', overflow: true, href: '/audit?of=1' }]} />);
    expect(screen.getByRole('link', { name: '审计' })).toHaveAttribute('href', '/audit?of=1');
    expect(screen.queryByRole('button', { name: '更多操作' })).toBeNull();
  });

  it('labels the ⋯ button in English too', async () => {
    await renderWithProviders(
      <RowActions
        actions={[
          { key: 'x', label: 'X', overflow: true, onClick: vi.fn() },
          { key: 'y', label: 'Y', overflow: true, onClick: vi.fn() },
        ]}
      />,
      { lng: 'en-US' },
    );
    expect(screen.getByRole('button', { name: 'More actions' })).toBeInTheDocument();
  });
});

describe('AddButton', () => {
  it('is hidden without its gate key', async () => {
    await renderWithProviders(<AddButton menu="thing-add" onClick={vi.fn()} />, withMenus(['thing-edit']));
    expect(screen.queryByRole('button', { name: '新建' })).toBeNull();
  });

  it('shows 新建 (or its own label) with the key and runs onClick', async () => {
    const add = vi.fn();
    const { user } = await renderWithProviders(
      <>
        <AddButton menu={['thing-add', 'thing-admin']} onClick={add} />
        <AddButton menu="thing-admin" label="导入" onClick={vi.fn()} />
      </>,
      withMenus(['thing-admin']),
    );
    await user.click(await screen.findByRole('button', { name: '新建' }));
    expect(add).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: '导入' })).toBeInTheDocument();
  });

  it('without a gate shows to an account holding no key (the portal’s own records)', async () => {
    await renderWithProviders(<AddButton onClick={vi.fn()} />, withMenus([]));
    expect(screen.getByRole('button', { name: '新建' })).toBeInTheDocument();
  });

  it('says New in English', async () => {
    await renderWithProviders(<AddButton menu="thing-add" onClick={vi.fn()} />, { ...withMenus(['thing-add']), lng: 'en-US' });
    expect(screen.getByRole('button', { name: 'New' })).toBeInTheDocument();
  });
});
