import { renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import terminal from '../../../plugins/terminal';
import { connectSocket, fakeSockets, sessionMaker } from './fixtures';

const ROUTE = '/term?assetId=a1&assetName=web-1';
const ASSETS = {
  total: 3,
  items: [
    { id: 'a2', name: 'db-1', protocol: 'ssh', description: '-' },
    { id: 'a3', name: 'win-1', protocol: 'rdp', description: '' },
    { id: 'a4', name: 'cache-1', protocol: 'ssh', description: 'redis' },
  ],
};

describe('terminal tabs', { timeout: 20_000 }, () => {
  it('"+" picks an SSH asset from the portal list and opens it in a new tab; each tab keeps its socket', async () => {
    const sockets = fakeSockets();
    const { user, api } = await renderPlugin(terminal, {
      route: ROUTE,
      session: { user: { type: 'user', menus: [] } },
      api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null, 'GET /worker/assets/paging': ASSETS },
    });
    const first = await connectSocket(sockets);
    await user.click(screen.getByRole('button', { name: '打开新会话' }));
    const dialog = await screen.findByRole('dialog', { name: '选择要打开的资产' });
    expect(await within(dialog).findByRole('button', { name: 'db-1 SSH' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /win-1/ })).toBeNull(); // not SSH
    expect(api.callsTo('GET /worker/assets/paging')[0]?.query).toMatchObject({ protocol: 'ssh', pageIndex: 1 });
    await user.click(within(dialog).getByRole('button', { name: 'db-1 SSH' }));

    const second = await connectSocket(sockets, 1);
    expect(api.callsTo('POST /sessions').map((c) => c.query.assetId)).toEqual(['a1', 'a2']);
    expect(await screen.findByRole('tab', { name: 'db-1 已连接' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'web-1 已连接' })).toHaveAttribute('aria-selected', 'false');
    expect(document.title).toBe('db-1');
    // Both stay alive; output for the hidden one is not lost.
    expect(first.readyState).toBe(first.OPEN);
    expect(second.readyState).toBe(second.OPEN);

    await user.click(screen.getByRole('tab', { name: 'web-1 已连接' }));
    await waitFor(() => expect(document.title).toBe('web-1'));
  });

  it('a second and third tab of one asset are told apart (#2, #3); numbers stay when another tab closes', async () => {
    const sockets = fakeSockets();
    const same = { total: 1, items: [{ id: 'a1', name: 'web-1', protocol: 'ssh', description: '' }] };
    const { user } = await renderPlugin(terminal, {
      route: ROUTE,
      session: { user: { type: 'user', menus: [] } },
      api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null, 'GET /worker/assets/paging': same },
    });
    await connectSocket(sockets);
    const openAgain = async (index: number) => {
      await user.click(screen.getByRole('button', { name: '打开新会话' }));
      await user.click(await within(await screen.findByRole('dialog', { name: '选择要打开的资产' })).findByRole('button', { name: 'web-1 SSH' }));
      await connectSocket(sockets, index);
    };
    await openAgain(1);
    expect(await screen.findByRole('tab', { name: 'web-1 #2 已连接' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'web-1 已连接' })).toHaveAttribute('aria-selected', 'false');
    await waitFor(() => expect(document.title).toBe('web-1 #2'));
    expect(screen.getByRole('textbox', { name: 'web-1 #2 的终端' })).toBeInTheDocument();
    await openAgain(2);
    expect(await screen.findByRole('tab', { name: 'web-1 #3 已连接' })).toBeInTheDocument();

    // Closing #2 renames nothing; the next one is #4 (the highest open is #3).
    await user.click(screen.getByRole('button', { name: '关闭 web-1 #2' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('确定要关闭「web-1 #2」的会话吗？');
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: '确定' }));
    // The page is out of the accessibility tree until the dialog has fully gone (then no tab at all matches /#2/):
    // wait for the tabs that stay.
    await waitFor(() => expect(screen.getAllByRole('tab').map((tab) => tab.getAttribute('aria-label'))).toEqual(['web-1 已连接', 'web-1 #3 已连接']));
    await waitFor(() => expect(screen.queryByRole('tab', { name: /#2/ })).toBeNull());
    expect(screen.getByRole('tab', { name: 'web-1 #3 已连接' })).toBeInTheDocument();
    await openAgain(3);
    expect(await screen.findByRole('tab', { name: 'web-1 #4 已连接' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((tab) => tab.getAttribute('aria-label'))).toEqual(['web-1 已连接', 'web-1 #3 已连接', 'web-1 #4 已连接']);
  });

  it('closing a connected tab asks first, then ends its socket; cancel keeps it', async () => {
    const sockets = fakeSockets();
    const { user } = await renderPlugin(terminal, { route: ROUTE, api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null } });
    const socket = await connectSocket(sockets);
    await screen.findByRole('tab', { name: 'web-1 已连接' });

    await user.click(screen.getByRole('button', { name: '关闭 web-1' }));
    const ask = await screen.findByRole('alertdialog');
    expect(ask).toHaveTextContent('确定要关闭「web-1」的会话吗？');
    await user.click(within(ask).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(socket.readyState).toBe(socket.OPEN);

    // The page is hidden from the accessibility tree until the dialog has fully gone: wait for the button again.
    await user.click(await screen.findByRole('button', { name: '关闭 web-1' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(screen.queryByRole('tab')).toBeNull());
    expect(socket.readyState).toBe(socket.CLOSED);
    expect(screen.getByText('没有打开的会话，点击 + 打开一个。')).toBeInTheDocument();
  });

  it('a tab that is not connected closes without asking; an admin with the asset key picks from the admin list', async () => {
    const sockets = fakeSockets();
    const { user, api } = await renderPlugin(terminal, {
      route: ROUTE,
      session: { user: { type: 'admin', menus: ['asset'] } },
      api: { 'POST /sessions': sessionMaker(), 'GET /assets/paging': ASSETS },
    });
    await waitFor(() => expect(sockets.all).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: '关闭 web-1' }));
    await waitFor(() => expect(screen.queryByRole('tab')).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: '打开新会话' }));
    expect(await screen.findByRole('button', { name: /^cache-1/ })).toBeInTheDocument();
    expect(api.callsTo('GET /assets/paging')[0]?.query).toMatchObject({ protocol: 'ssh' });
  });
});
