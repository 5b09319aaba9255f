import { expectValidPlugin, reply, renderPlugin } from '@/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import terminal from '../../../plugins/terminal';
import { connectSocket, fakeSockets, screenText, sessionMaker } from './fixtures';

const ROUTE = '/term?assetId=a1&assetName=web-1';

describe('terminal plugin: /term', { timeout: 20_000 }, () => {
  it('is a valid plugin', async () => {
    await expectValidPlugin(terminal);
  });

  it('creates a native session, opens its socket with the terminal size, connects on 1 and shows output', async () => {
    const sockets = fakeSockets();
    const { api, container } = await renderPlugin(terminal, {
      route: ROUTE,
      api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null },
    });
    await waitFor(() => expect(sockets.all).toHaveLength(1));
    expect(api.callsTo('POST /sessions')[0]?.query).toEqual({ assetId: 'a1', mode: 'native' });
    const url = new URL(sockets.last().url);
    expect(url.pathname).toBe('/sessions/s1/ssh');
    expect(url.protocol).toBe('ws:');
    expect(Object.fromEntries(url.searchParams)).toEqual({ cols: '80', rows: '24', lng: 'zh-CN', 'X-Auth-Token': 'test-token' });
    expect(document.title).toBe('web-1');

    const socket = await connectSocket(sockets);
    await waitFor(() => expect(api.callsTo('POST /sessions/:id/connect')).toHaveLength(1));
    expect(api.callsTo('POST /sessions/:id/connect')[0]?.path).toBe('/sessions/s1/connect');
    socket.serverSends('2hello 中文\r\n$ ');
    await waitFor(() => expect(screenText(container)).toContain('hello 中文'));
    expect(screen.getByRole('tab', { name: 'web-1 已连接' })).toBeInTheDocument();
  });

  it('sends keystrokes as 2… frames', async () => {
    const sockets = fakeSockets();
    const { user } = await renderPlugin(terminal, { route: ROUTE, api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null } });
    const socket = await connectSocket(sockets);
    const input = await screen.findByRole('textbox', { name: 'web-1 的终端' });
    await user.type(input, 'ls');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(socket.sent.filter((f) => f.startsWith('2')).join('')).toBe('2l2s2\r'));
  });

  it('pings every 10 s while open, and stops when the socket closes', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const sockets = fakeSockets();
      await renderPlugin(terminal, { route: ROUTE, api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null } });
      const socket = await connectSocket(sockets);
      expect(socket.sent.filter((f) => f === '4')).toHaveLength(0);
      vi.advanceTimersByTime(10_000);
      expect(socket.sent.filter((f) => f === '4')).toHaveLength(1);
      vi.advanceTimersByTime(20_000);
      expect(socket.sent.filter((f) => f === '4')).toHaveLength(3);
      socket.serverSends('4'); // a pong changes nothing
      socket.serverCloses();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks the server to pause above 1 MiB of unparsed output and to resume once xterm caught up', async () => {
    const sockets = fakeSockets();
    await renderPlugin(terminal, { route: ROUTE, api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null } });
    const socket = await connectSocket(sockets);
    const line = `${'x'.repeat(79)}\n`;
    const chunk = line.repeat(2000); // 160 kB
    for (let i = 0; i < 8; i += 1) socket.serverSends(`2${chunk}`);
    expect(socket.sent).toContain('5');
    expect(socket.sent).not.toContain('6');
    await waitFor(() => expect(socket.sent).toContain('6'), { timeout: 20_000 });
    expect(socket.sent.indexOf('5')).toBeLessThan(socket.sent.indexOf('6'));
  }, 30_000);

  it('shows the close reason with a reconnect prompt; reconnect opens a new session', async () => {
    const sockets = fakeSockets();
    const { api, user } = await renderPlugin(terminal, { route: ROUTE, api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null } });
    const socket = await connectSocket(sockets);
    socket.serverSends('0管理员强制关闭了此会话');
    expect(await screen.findByText('管理员强制关闭了此会话')).toBeInTheDocument();
    expect(screen.getByText('会话已断开')).toBeInTheDocument();
    expect(socket.readyState).toBe(socket.CLOSED);
    expect(await screen.findByRole('tab', { name: 'web-1 已断开' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '重新连接' }));
    await waitFor(() => expect(sockets.all).toHaveLength(2));
    expect(api.callsTo('POST /sessions')).toHaveLength(2);
    expect(new URL(sockets.last().url).pathname).toBe('/sessions/s2/ssh');
  });

  it('a socket closed without a reason still offers to reconnect', async () => {
    const sockets = fakeSockets();
    await renderPlugin(terminal, { route: ROUTE, api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null } });
    const socket = await connectSocket(sockets);
    socket.serverCloses(1006);
    expect(await screen.findByText('连接已关闭')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '重新连接' })).toBeInTheDocument();
  });

  it("shows the server's refusal when the session cannot be created, never a blank page", async () => {
    const sockets = fakeSockets();
    await renderPlugin(terminal, { route: ROUTE, api: { 'POST /sessions': reply.envelope(-1, '您没有权限访问此资产') } });
    expect(await screen.findByText('您没有权限访问此资产')).toBeInTheDocument();
    expect(screen.getByText('创建会话失败')).toBeInTheDocument();
    expect(sockets.all).toHaveLength(0);
  });

  it('says a parameter is missing without assetId', async () => {
    await renderPlugin(terminal, { route: '/term' });
    expect(await screen.findByText('参数缺失，请关闭此页面后重新打开。')).toBeInTheDocument();
  });

  it('refuses copy and paste on the terminal when the strategy says "0"', async () => {
    const sockets = fakeSockets();
    const { eventsOf } = await renderPlugin(terminal, {
      route: ROUTE,
      api: { 'POST /sessions': sessionMaker({ copy: '0', paste: '0' }), 'POST /sessions/:id/connect': null },
    });
    const socket = await connectSocket(sockets);
    const input = await screen.findByRole('textbox', { name: 'web-1 的终端' });
    const paste = new Event('paste', { bubbles: true, cancelable: true });
    fireEvent(input, paste);
    expect(paste.defaultPrevented).toBe(true);
    const copy = new Event('copy', { bubbles: true, cancelable: true });
    fireEvent(input, copy);
    expect(copy.defaultPrevented).toBe(true);
    expect(eventsOf('notify').map((n) => n.message)).toEqual(['禁止粘贴', '禁止复制']);
    expect(socket.sent.filter((f) => f.startsWith('2'))).toEqual([]);
  });

  it('leaves copy and paste alone when allowed', async () => {
    const sockets = fakeSockets();
    const { eventsOf } = await renderPlugin(terminal, { route: ROUTE, api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null } });
    await connectSocket(sockets);
    const input = await screen.findByRole('textbox', { name: 'web-1 的终端' });
    const copy = new Event('copy', { bubbles: true, cancelable: true });
    fireEvent(input, copy);
    expect(eventsOf('notify')).toEqual([]);
  });

  it('Ctrl+V pastes the clipboard where the strategy allows paste', async () => {
    const sockets = fakeSockets();
    const { user, eventsOf } = await renderPlugin(terminal, { route: ROUTE, api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null } });
    const socket = await connectSocket(sockets);
    await user.click(await screen.findByRole('textbox', { name: 'web-1 的终端' }));
    await navigator.clipboard.writeText('echo 粘贴\nls');
    await user.keyboard('{Control>}v{/Control}');
    // Sent as typed (line ends as Enter), not as ^V.
    await waitFor(() => expect(socket.sent.filter((f) => f.startsWith('2'))).toEqual(['2echo 粘贴\rls']));
    expect(eventsOf('notify')).toEqual([]);
  });

  it('Ctrl+V is left to xterm (^V to the host) where the strategy refuses paste; the clipboard is not read', async () => {
    const sockets = fakeSockets();
    const { user, eventsOf } = await renderPlugin(terminal, {
      route: ROUTE,
      api: { 'POST /sessions': sessionMaker({ paste: '0' }), 'POST /sessions/:id/connect': null },
    });
    const socket = await connectSocket(sockets);
    const input = await screen.findByRole('textbox', { name: 'web-1 的终端' });
    await user.click(input);
    await navigator.clipboard.writeText('secret');
    const read = vi.spyOn(navigator.clipboard, 'readText');
    // With the keyCode a browser gives, so xterm's own handling is what runs.
    fireEvent.keyDown(input, { key: 'v', code: 'KeyV', keyCode: 86, ctrlKey: true });
    await waitFor(() => expect(socket.sent.filter((f) => f.startsWith('2'))).toEqual(['2\x16']));
    expect(read).not.toHaveBeenCalled();
    expect(eventsOf('notify')).toEqual([]);
  });

  it('without the clipboard API (plain HTTP), Ctrl+V says how to paste instead: Ctrl+Shift+V or the right-click menu', async () => {
    const sockets = fakeSockets();
    const { user, eventsOf } = await renderPlugin(terminal, { route: ROUTE, api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null } });
    const socket = await connectSocket(sockets);
    await user.click(await screen.findByRole('textbox', { name: 'web-1 的终端' }));
    const own = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    try {
      await user.keyboard('{Control>}v{/Control}');
      await waitFor(() => expect(eventsOf('notify')).toHaveLength(1));
    } finally {
      if (own) Object.defineProperty(navigator, 'clipboard', own);
      else Reflect.deleteProperty(navigator, 'clipboard');
    }
    expect(eventsOf('notify')[0]).toMatchObject({ intent: 'info', message: '浏览器不允许此页面读取剪贴板：请按 Ctrl+Shift+V，或在终端中右键选择“粘贴”。' });
    expect(socket.sent.filter((f) => f.startsWith('2'))).toEqual([]); // no stray ^V
  });

  it('asks before the window unloads while connected', async () => {
    const sockets = fakeSockets();
    await renderPlugin(terminal, { route: ROUTE, api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null } });
    const before = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(before);
    expect(before.defaultPrevented).toBe(false);
    await connectSocket(sockets);
    await screen.findByRole('tab', { name: 'web-1 已连接' });
    const now = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(now);
    expect(now.defaultPrevented).toBe(true);
  });

  it('types a snippet into the terminal without Enter (the portal’s own commands with isWorker)', async () => {
    const sockets = fakeSockets();
    const { user, api } = await renderPlugin(terminal, {
      route: `${ROUTE}&isWorker=true`,
      api: {
        'POST /sessions': sessionMaker(),
        'POST /sessions/:id/connect': null,
        'GET /worker/commands': [{ id: 'c1', name: '磁盘', content: 'df -h' }],
      },
    });
    const socket = await connectSocket(sockets);
    // The button is there from the start, disabled until the tab shows as connected: a click before that does nothing.
    const snippets = await screen.findByRole('button', { name: '指令' });
    await waitFor(() => expect(snippets).toBeEnabled());
    await user.click(snippets);
    await user.click(await screen.findByRole('menuitem', { name: '磁盘' }));
    expect(socket.sent).toContain('2df -h');
    expect(api.callsTo('GET /worker/commands')).toHaveLength(1);
  });

  it('opens the search box from the toolbar and with Ctrl+Shift+F; Escape closes it', async () => {
    const sockets = fakeSockets();
    const { user } = await renderPlugin(terminal, { route: ROUTE, api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null } });
    const socket = await connectSocket(sockets);
    socket.serverSends('2needle in a haystack\r\n');
    await user.click(await screen.findByRole('button', { name: '搜索 (Ctrl+Shift+F)' }));
    const box = await screen.findByRole('textbox', { name: '搜索' });
    await user.type(box, 'needle{Enter}');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('textbox', { name: '搜索' })).toBeNull());

    await user.click(screen.getByRole('textbox', { name: 'web-1 的终端' }));
    await user.keyboard('{Control>}{Shift>}F{/Shift}{/Control}');
    expect(await screen.findByRole('textbox', { name: '搜索' })).toBeInTheDocument();
    expect(socket.sent.filter((f) => f.startsWith('2'))).toEqual([]); // the shortcut is not sent to the host
  });

  it('English', async () => {
    const sockets = fakeSockets();
    await renderPlugin(terminal, { route: ROUTE, lng: 'en-US', api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null } });
    const socket = await connectSocket(sockets);
    socket.serverSends('0远程连接已关闭');
    expect(await screen.findByText('Session ended')).toBeInTheDocument();
    expect(await within(screen.getByRole('tablist')).findByRole('tab', { name: 'web-1 Disconnected' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeInTheDocument();
  });
});
