import { type FakeRequest, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import terminal from '../../../plugins/terminal';
import { connectSocket, fakeSockets, screenText, sessionMaker } from './fixtures';

// A Telnet session as the server answers it: no file system (the relay offers none).
const telnetSession = sessionMaker({ fileSystem: '0' });
const TELNET = '/term?assetId=a9&assetName=switch-1&protocol=telnet';

/** The asset lists answer each protocol with its own assets, as the server filters them. */
const byProtocol =
  (items: { id: string; name: string; protocol: string; description: string }[]) =>
  ({ query }: FakeRequest) => {
    const rows = items.filter((a) => a.protocol === query.protocol);
    return { total: rows.length, items: rows };
  };
const ASSETS = byProtocol([
  { id: 'a2', name: 'db-1', protocol: 'ssh', description: '' },
  { id: 'a9', name: 'switch-1', protocol: 'telnet', description: 'core switch' },
  { id: 'a3', name: 'win-1', protocol: 'rdp', description: '' },
]);

describe('terminal plugin: Telnet', { timeout: 20_000 }, () => {
  it('a Telnet link opens its session on /sessions/:id/telnet with the same frames as SSH', async () => {
    const sockets = fakeSockets();
    const { api, user, container } = await renderPlugin(terminal, {
      route: TELNET,
      api: { 'POST /sessions': telnetSession, 'POST /sessions/:id/connect': null },
    });
    await waitFor(() => expect(sockets.all).toHaveLength(1));
    expect(api.callsTo('POST /sessions')[0]?.query).toEqual({ assetId: 'a9', mode: 'native' });
    const url = new URL(sockets.last().url);
    expect(url.pathname).toBe('/sessions/s1/telnet');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ cols: '80', rows: '24' });

    const socket = await connectSocket(sockets);
    await waitFor(() => expect(api.callsTo('POST /sessions/:id/connect')[0]?.path).toBe('/sessions/s1/connect'));
    socket.serverSends('2switch-1> ');
    await waitFor(() => expect(screenText(container)).toContain('switch-1>'));
    await user.type(await screen.findByRole('textbox', { name: 'switch-1 的终端' }), 'show');
    await waitFor(() => expect(socket.sent.filter((f) => f.startsWith('2')).join('')).toBe('2s2h2o2w'));
    expect(await screen.findByRole('tab', { name: 'switch-1 已连接' })).toBeInTheDocument();
  });

  it('offers neither the status panel nor the file manager on a Telnet tab, and never asks for stats', async () => {
    const sockets = fakeSockets();
    const { api, user } = await renderPlugin(terminal, {
      route: TELNET,
      api: { 'POST /sessions': telnetSession, 'POST /sessions/:id/connect': null },
    });
    await connectSocket(sockets);
    await screen.findByRole('tab', { name: 'switch-1 已连接' });
    // Disabled but focusable, named by why (the toolbar keeps its place when tabs change).
    const stats = screen.getByRole('button', { name: '此会话不提供状态信息（仅 SSH 会话提供）' });
    expect(stats).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: '此会话不提供文件管理' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.queryByRole('button', { name: '状态信息' })).toBeNull();
    await user.click(stats);
    expect(screen.queryByRole('dialog', { name: '状态信息' })).toBeNull();
    expect(api.callsTo('GET /sessions/:id/stats')).toHaveLength(0);
  });

  it('old links without protocol, and ones naming a protocol the page does not open, stay SSH', async () => {
    const sockets = fakeSockets();
    const view = await renderPlugin(terminal, {
      route: '/term?assetId=a1&assetName=web-1',
      api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null },
    });
    await waitFor(() => expect(sockets.all).toHaveLength(1));
    expect(new URL(sockets.last().url).pathname).toBe('/sessions/s1/ssh');
    view.unmount();
    await renderPlugin(terminal, {
      route: '/term?assetId=a1&assetName=web-1&protocol=gopher',
      api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null },
    });
    await waitFor(() => expect(sockets.all).toHaveLength(2));
    expect(new URL(sockets.last().url).pathname).toBe('/sessions/s1/ssh');
    await connectSocket(sockets, 1);
    await screen.findByRole('tab', { name: 'web-1 已连接' });
    // SSH keeps its status panel.
    expect(await screen.findByRole('button', { name: '状态信息' })).not.toHaveAttribute('aria-disabled', 'true');
  });

  it("the server's word on the session's protocol wins over the link's", async () => {
    const sockets = fakeSockets();
    let n = 0;
    await renderPlugin(terminal, {
      route: '/term?assetId=a9&assetName=switch-1',
      api: { 'POST /sessions': () => ({ ...telnetSession(), id: `t${++n}`, protocol: 'telnet' }), 'POST /sessions/:id/connect': null },
    });
    await waitFor(() => expect(sockets.all).toHaveLength(1));
    expect(new URL(sockets.last().url).pathname).toBe('/sessions/t1/telnet');
  });

  it('"+" lists SSH and Telnet assets (one request each), by name with their protocol; a Telnet pick opens on /telnet', async () => {
    const sockets = fakeSockets();
    const { api, user } = await renderPlugin(terminal, {
      route: '/term?assetId=a1&assetName=web-1&isWorker=true',
      session: { user: { type: 'user', menus: [] } },
      api: {
        'POST /sessions': ({ query }: FakeRequest) => (query.assetId === 'a9' ? { ...telnetSession(), id: 's9' } : { ...sessionMaker()(), id: 's1' }),
        'POST /sessions/:id/connect': null,
        'GET /worker/assets/paging': ASSETS,
      },
    });
    await connectSocket(sockets);
    await screen.findByRole('tab', { name: 'web-1 已连接' });
    expect(screen.getByRole('button', { name: '状态信息' })).not.toHaveAttribute('aria-disabled', 'true');

    await user.click(screen.getByRole('button', { name: '打开新会话' }));
    const dialog = await screen.findByRole('dialog', { name: '选择要打开的资产' });
    const list = within(dialog).getByRole('list', { name: '选择要打开的资产' });
    await waitFor(() => expect(within(list).getAllByRole('button').map((b) => b.textContent)).toEqual(['db-1SSH', 'switch-1Telnetcore switch']));
    expect(api.callsTo('GET /worker/assets/paging').map((c) => c.query.protocol)).toEqual(['ssh', 'telnet']);
    await user.click(within(list).getByRole('button', { name: /^switch-1/ }));

    await connectSocket(sockets, 1);
    expect(new URL(sockets.last().url).pathname).toBe('/sessions/s9/telnet');
    expect(await screen.findByRole('tab', { name: 'switch-1 已连接' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('button', { name: '此会话不提供状态信息（仅 SSH 会话提供）' })).toHaveAttribute('aria-disabled', 'true');
    // Back to the SSH tab: its status panel is offered again.
    await user.click(screen.getByRole('tab', { name: 'web-1 已连接' }));
    expect(await screen.findByRole('button', { name: '状态信息' })).not.toHaveAttribute('aria-disabled', 'true');
  });

  it('English', async () => {
    const sockets = fakeSockets();
    await renderPlugin(terminal, { route: TELNET, lng: 'en-US', api: { 'POST /sessions': telnetSession, 'POST /sessions/:id/connect': null } });
    await connectSocket(sockets);
    expect(await screen.findByRole('button', { name: 'This session offers no status panel (SSH sessions only)' })).toHaveAttribute('aria-disabled', 'true');
  });
});
