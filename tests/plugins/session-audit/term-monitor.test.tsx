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
    expect(ws.url).toBe(`ws://localhost:3000/sessions/s1/ssh-monitor?lng=zh-CN&X-Auth-Token=${store.getState().token}`);
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

  it("shows the watched terminal's columns and rows, follows its resizes, and scales it to the window", async () => {
    // jsdom lays nothing out: the viewer's window is 1000 × 600, the fake screen 0.6 × 1.2 font sizes a cell.
    const room = (side: 'width' | 'height') =>
      function (this: HTMLElement) {
        return this.dataset.viewer === 'viewport' ? (side === 'width' ? 1000 : 600) : 0;
      };
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(room('width'));
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(room('height'));
    const sizeFrame = (cols: number, rows: number) => `3${btoa(JSON.stringify({ cols, rows }))}`;
    try {
      await renderPlugin(sessionAudit, {
        route: '/term-monitor?sessionId=s1',
        session: { user: { menus: ['online-session', 'online-session-monitor'] } },
        // The row says 120 × 40 (its last stored size); the stream says 200 × 50 (now): the stream wins.
        api: { 'GET /sessions/:id': session({ id: 's1', creatorName: 'Ann', assetName: 'web-01', width: 120, height: 40 }) },
      });
      await screen.findByRole('region', { name: '会话监控终端' });
      await waitFor(() => expect(fakeTerms[0]?.term.cols).toBe(120)); // the row, while the stream has said nothing
      const ws = await socket();
      act(() => ws.serverSends(sizeFrame(200, 50)));
      act(() => ws.serverSends(`2\x1bc${'x'.repeat(200)}`));
      await waitFor(() => expect([fakeTerms[0]?.term.cols, fakeTerms[0]?.term.rows]).toEqual([200, 50]));
      // A 200-column line is one row, not two.
      await waitFor(async () => expect((await shownText()).split('\n')[0]).toBe('x'.repeat(200)));
      // 1000 / (200 × 0.6) = 8.33 px by the width, 600 / (50 × 1.2) = 10 by the height: the width decides, and 8.33 px
      // is below the readable floor: 12 px, the window scrolls.
      await waitFor(() => expect(fakeTerms[0]?.fontSize).toBe(12));
      expect(await screen.findByText('缩放 80%')).toBeInTheDocument();
      // The user makes the terminal smaller: the mirror follows and grows (1000 / 60 = 600 / 36 = 16.67).
      act(() => ws.serverSends(sizeFrame(100, 30)));
      await waitFor(() => expect([fakeTerms[0]?.term.cols, fakeTerms[0]?.term.rows]).toEqual([100, 30]));
      await waitFor(() => expect(fakeTerms[0]?.fontSize).toBe(16.66));
      // A malformed size frame changes nothing.
      act(() => ws.serverSends('3not-base64-json'));
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      expect(fakeTerms[0]?.term.cols).toBe(100);
      expect(ws.sent).toEqual([]);
    } finally {
      vi.restoreAllMocks();
    }
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
