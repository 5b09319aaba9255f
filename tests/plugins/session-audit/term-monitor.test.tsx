import { type FakeSockets, FakeWebSocket, installFakeWebSocket, renderPlugin } from '@/core/testing';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import sessionAudit from '../../../plugins/session-audit';
import { fakeTerms, shownText } from './fakeXterm';
import { session } from './fixtures';

vi.mock('@/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@/core')>();
  return { ...core, XtermView: (await import('./fakeXterm')).fakeXtermView(core.createShadowTerminal) };
});

vi.setConfig({ testTimeout: 30_000 });
let sockets: FakeSockets;
beforeEach(() => {
  fakeTerms.length = 0;
  sockets = installFakeWebSocket();
});
afterEach(() => sockets.restore());

const socket = async () => {
  await waitFor(() => expect(sockets.all).toHaveLength(1));
  const ws = sockets.all[0] as FakeWebSocket;
  act(() => ws.serverOpens());
  return ws;
};

// The monitor key also reads the session (its title line).
const info = { 'GET /sessions/:id': session({ id: 's1', creatorName: 'Ann', assetName: 'web-01' }) };

describe('session-audit: live monitor', () => {
  it('waits for output, writes it read-only, and shows why the session ended', async () => {
    const { session: store } = await renderPlugin(sessionAudit, {
      route: '/term-monitor?sessionId=s1',
      session: { user: { menus: ['online-session', 'online-session-monitor'] } },
      api: info,
    });
    const ws = await socket();
    expect(ws.url).toBe(`ws://localhost:3000/sessions/s1/ssh-monitor?X-Auth-Token=${store.getState().token}`);
    expect(screen.getByRole('status')).toHaveTextContent('等待用户输入中...');
    await screen.findByRole('region', { name: '会话监控终端' });
    act(() => ws.serverSends('2root@web-01:~# ls\r\nfile.txt'));
    await waitFor(() => expect(screen.queryByText('等待用户输入中...')).toBeNull());
    await waitFor(async () => expect(await shownText()).toContain('root@web-01:~# ls'));
    expect(await shownText()).toContain('file.txt');
    act(() => ws.serverSends('0管理员强制关闭了此会话'));
    expect(await screen.findByRole('alert')).toHaveTextContent('会话已结束：管理员强制关闭了此会话');
    expect(ws.readyState).toBe(FakeWebSocket.CLOSED);
    expect(ws.sent).toEqual([]); // keystrokes and resizes are never sent
  });

  it('an offline session is told at once; a dropped socket says so', async () => {
    const view = await renderPlugin(sessionAudit, { route: '/term-monitor?sessionId=gone', session: { user: { menus: ['online-session-monitor'] } }, api: info });
    const gone = await socket();
    act(() => gone.serverSends('0会话已离线'));
    expect(await screen.findByRole('alert')).toHaveTextContent('会话已结束：会话已离线');
    view.unmount();
    sockets.all.length = 0;
    await renderPlugin(sessionAudit, { route: '/term-monitor?sessionId=s2', session: { user: { menus: ['online-session-monitor'] } }, api: info });
    const ws = await socket();
    act(() => ws.serverCloses());
    expect(await screen.findByRole('alert')).toHaveTextContent('监控连接已断开');
  });

  it('names who and what is watched when the viewer may read the session', async () => {
    await renderPlugin(sessionAudit, {
      route: '/term-monitor?sessionId=s1',
      api: { 'GET /sessions/:id': session({ id: 's1', creatorName: 'Ann', assetName: 'web-01', username: 'root', ip: '10.0.0.5', port: 22 }) },
    });
    expect(await screen.findByText('正在监控：Ann → web-01（root@10.0.0.5:22）')).toBeInTheDocument();
  });

  it('is closed without the monitor key (403), and speaks English', async () => {
    const view = await renderPlugin(sessionAudit, { route: '/term-monitor?sessionId=s1', session: { user: { menus: ['online-session'] } } });
    expect(await screen.findByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
    expect(sockets.all).toHaveLength(0);
    view.unmount();
    await renderPlugin(sessionAudit, { route: '/term-monitor?sessionId=s1', lng: 'en-US', session: { user: { menus: ['online-session-monitor'] } }, api: info });
    expect(await screen.findByRole('status')).toHaveTextContent('Waiting for user input...');
  });
});
