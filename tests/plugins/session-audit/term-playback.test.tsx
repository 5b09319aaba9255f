import { reply, renderPlugin } from '@/core/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import sessionAudit from '../../../plugins/session-audit';
import { castText } from './cast';
import { fakeTerms, shownText } from './fakeXterm';
import { session } from './fixtures';

/** A fit settles over a few animation frames: slower when the whole suite shares the machine's cores. */
const SETTLES = { timeout: 5000 };

vi.mock('@/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@/core')>();
  return { ...core, XtermView: (await import('./fakeXterm')).fakeXtermView(core.createShadowTerminal) };
});

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => {
  fakeTerms.length = 0;
});
afterEach(() => vi.restoreAllMocks());

const recording = `${castText({ version: 2, width: 40, height: 6, timestamp: 1_700_000_000 }, [
  [0.5, 'o', '$ ls\r\n'],
  [1, 'o', 'file-a file-b\r\n'],
  [10, 'o', '$ whoami\r\n'],
  [10.5, 'o', 'root\r\n'],
  [12, 'r', '50x8'],
  [30, 'o', '$ exit\r\n'],
])}\nnot a line\n`;
const commands = {
  total: 3,
  items: [
    { id: 1, offsetMs: 400, command: 'ls', created: '2026-11-23 10:00:00' },
    { id: 2, offsetMs: 9900, command: 'whoami', created: '2026-11-23 10:00:10' },
    { id: 3, offsetMs: 29_900, command: 'exit', created: '2026-11-23 10:00:30' },
  ],
};
// The playback key also reads the session (its title line).
const api = { 'GET /sessions/:id/recording': recording, 'GET /sessions/:id/commands/paging': commands, 'GET /sessions/:id': session({ id: 's1' }) };
const PLAYBACK_ONLY = { user: { menus: ['offline-session-playback'] } };

const ready = async () => {
  // The first test of a file also loads the plugin's chunk and the shadow terminal: slow on a busy machine.
  await waitFor(() => expect(screen.getByRole('button', { name: '播放' })).toBeEnabled(), { timeout: 10_000 });
};
const clock = () => screen.getByRole('slider', { name: '播放进度' }).getAttribute('aria-valuetext');

describe('session-audit: playback', () => {
  it('loads the recording and its command index; a click on a command shows the screen at that moment', async () => {
    const { user, api: calls } = await renderPlugin(sessionAudit, { route: '/term-playback?sessionId=s1', session: PLAYBACK_ONLY, api });
    await ready();
    expect(calls.callsTo('GET /sessions/:id/recording')[0]?.path).toBe('/sessions/s1/recording');
    expect(calls.callsTo('GET /sessions/:id/commands/paging')[0]?.query).toEqual({ pageIndex: 1, pageSize: 1000 });
    expect(clock()).toBe('0:00 / 0:30');
    expect(screen.getByText('有 1 行记录无法解析，已跳过')).toBeInTheDocument();
    const index = within(screen.getByRole('region', { name: '命令记录' }));
    expect(index.getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['跳转到 0:00：ls', '跳转到 0:09：whoami', '跳转到 0:29：exit']);
    expect(fakeTerms[0]?.term.cols).toBe(40); // sized to the header

    await user.click(index.getByRole('button', { name: '跳转到 0:09：whoami' }));
    await waitFor(() => expect(clock()).toBe('0:09 / 0:30'));
    const shown = await shownText();
    expect(shown).toContain('file-a file-b');
    expect(shown).not.toContain('whoami');
    expect(index.getByRole('button', { name: '跳转到 0:09：whoami' })).toHaveAttribute('aria-current', 'true');

    // Back to the start, then past the resize: the terminal follows the "r" event.
    await user.click(index.getByRole('button', { name: '跳转到 0:29：exit' }));
    await waitFor(() => expect(fakeTerms[0]?.term.cols).toBe(50), SETTLES);
    const later = await shownText();
    expect(later).toContain('root');
    expect(later).not.toContain('$ exit');
    await user.click(index.getByRole('button', { name: '跳转到 0:00：ls' }));
    await waitFor(async () => expect(await shownText()).not.toContain('root'));
    expect(fakeTerms[0]?.term.cols).toBe(40);
  });

  it('plays at the chosen speed, skips idle, and takes keys; the search filters the index', async () => {
    const { user } = await renderPlugin(sessionAudit, { route: '/term-playback?sessionId=s1', session: PLAYBACK_ONLY, api });
    await ready();
    await user.keyboard('{ArrowRight}'); // +5 s
    await waitFor(() => expect(clock()).toBe('0:05 / 0:30'));
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    await waitFor(() => expect(clock()).toBe('0:00 / 0:30'));

    await user.selectOptions(screen.getByRole('combobox', { name: '倍速' }), '4×');
    await user.click(screen.getByRole('switch', { name: '跳过空闲（最长 2 秒）' }));
    await user.click(screen.getByRole('button', { name: '播放' }));
    // 30 s of recording, pauses of 9 s and 18 s: at 4× with pauses cut to 2 s about 1.75 s of real time, 7.5 s without.
    await waitFor(async () => expect(await shownText()).toContain('$ exit'), { timeout: 5000 });
    await waitFor(() => expect(screen.getByRole('button', { name: '播放' })).toBeInTheDocument()); // stopped at the end
    expect(clock()).toBe('0:30 / 0:30');
    const index = within(screen.getByRole('region', { name: '命令记录' }));
    expect(index.getByRole('button', { name: '跳转到 0:29：exit' })).toHaveAttribute('aria-current', 'true');

    await user.type(screen.getByRole('textbox', { name: '搜索命令' }), 'WHO');
    expect(index.getAllByRole('button').map((b) => b.textContent)).toEqual(['0:09whoami']);
  });

  it('fits the recording to the window (width and height), zooms in and out, fits again, and goes full screen', async () => {
    // jsdom lays nothing out: the viewer's window is 900 × 540, the fake screen 0.6 × 1.2 font sizes a cell.
    const room = (side: 'width' | 'height') =>
      function (this: HTMLElement) {
        return this.dataset.viewer === 'viewport' ? (side === 'width' ? 900 : 540) : 0;
      };
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(room('width'));
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(room('height'));
    const requestFullscreen = vi.fn(function (this: HTMLElement) {
      return Promise.resolve();
    });
    Object.defineProperty(HTMLElement.prototype, 'requestFullscreen', { configurable: true, value: requestFullscreen });
    try {
      const { user } = await renderPlugin(sessionAudit, { route: '/term-playback?sessionId=s1', session: PLAYBACK_ONLY, api });
      await ready();
      const font = () => fakeTerms[0]?.fontSize;
      // 40 × 6 cells: 900 / (40 × 0.6) = 37.5 px by the width, 540 / (6 × 1.2) = 75 by the height: the width decides.
      await waitFor(() => expect(font()).toBe(37.5), SETTLES);
      const bar = within(screen.getByRole('toolbar', { name: '显示' }));
      expect(await bar.findByText('缩放 250%')).toBeInTheDocument();
      expect(bar.getByRole('button', { name: '适应窗口' })).toHaveAttribute('aria-pressed', 'true');

      await user.click(bar.getByRole('button', { name: '放大' }));
      await waitFor(() => expect(font()).toBe(45), SETTLES); // the next level above 250 %: 300 %
      expect(await bar.findByText('缩放 300%')).toBeInTheDocument();
      expect(bar.getByRole('button', { name: '适应窗口' })).toHaveAttribute('aria-pressed', 'false');
      await user.click(bar.getByRole('button', { name: '缩小' }));
      await user.click(bar.getByRole('button', { name: '缩小' }));
      await waitFor(() => expect(font()).toBe(30), SETTLES);
      // Keyboard: the buttons are in the tab order.
      bar.getByRole('button', { name: '适应窗口' }).focus();
      await user.keyboard('{Enter}');
      await waitFor(() => expect(font()).toBe(37.5), SETTLES);

      // Past the resize to 50 × 8: the fit follows (900 / 30 = 30 px).
      await user.click(within(screen.getByRole('region', { name: '命令记录' })).getByRole('button', { name: '跳转到 0:29：exit' }));
      await waitFor(() => expect(fakeTerms[0]?.term.cols).toBe(50), SETTLES);
      await waitFor(() => expect(font()).toBe(30), SETTLES);

      await user.click(bar.getByRole('button', { name: '全屏' }));
      expect(requestFullscreen).toHaveBeenCalledTimes(1);
      expect(requestFullscreen.mock.contexts[0]).toBe(screen.getByRole('main'));
      // The browser says it is full screen: the button offers the way back.
      Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => screen.getByRole('main') });
      const exitFullscreen = vi.fn(() => Promise.resolve());
      Object.defineProperty(document, 'exitFullscreen', { configurable: true, value: exitFullscreen });
      act(() => {
        document.dispatchEvent(new Event('fullscreenchange'));
      });
      await user.click(await bar.findByRole('button', { name: '退出全屏' }));
      expect(exitFullscreen).toHaveBeenCalledTimes(1);
    } finally {
      Reflect.deleteProperty(HTMLElement.prototype, 'requestFullscreen');
      Reflect.deleteProperty(document, 'fullscreenElement');
      Reflect.deleteProperty(document, 'exitFullscreen');
    }
  });

  it('fits no smaller than a readable 12 px: a terminal too wide for the window scrolls instead', async () => {
    // A 240 × 100 window: 40 × 6 cells would fit at 240 / (40 × 0.6) = 10 px.
    const room = (side: 'width' | 'height') =>
      function (this: HTMLElement) {
        return this.dataset.viewer === 'viewport' ? (side === 'width' ? 240 : 100) : 0;
      };
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(room('width'));
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(room('height'));
    await renderPlugin(sessionAudit, { route: '/term-playback?sessionId=s1', session: PLAYBACK_ONLY, api });
    await ready();
    await waitFor(() => expect(fakeTerms[0]?.fontSize).toBe(12), SETTLES);
    expect(await within(screen.getByRole('toolbar', { name: '显示' })).findByText('缩放 80%')).toBeInTheDocument();
  });

  it('names the session for viewers who may read it; says why a recording cannot load', async () => {
    const view = await renderPlugin(sessionAudit, {
      route: '/term-playback?sessionId=s1',
      api: { ...api, 'GET /sessions/:id': session({ id: 's1', creatorName: 'Ann', assetName: 'web-01', connectedTime: '2026-11-23 10:00:00' }) },
    });
    expect(await screen.findByRole('heading', { name: '会话回放：Ann → web-01（2026-11-23 10:00:00）' })).toBeInTheDocument();
    view.unmount();
    await renderPlugin(sessionAudit, {
      route: '/term-playback?sessionId=s9',
      session: PLAYBACK_ONLY,
      api: { 'GET /sessions/:id/recording': reply.envelope(-1, '录像文件不存在'), 'GET /sessions/:id/commands/paging': { total: 0, items: [] }, 'GET /sessions/:id': session({ id: 's9' }) },
    });
    expect(await screen.findByText('加载录像失败：录像文件不存在')).toBeInTheDocument();
  });

  it('is closed without the playback key, and speaks English', async () => {
    const view = await renderPlugin(sessionAudit, { route: '/term-playback?sessionId=s1', session: { user: { menus: ['offline-session'] } } });
    expect(await screen.findByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
    view.unmount();
    await renderPlugin(sessionAudit, { route: '/term-playback?sessionId=s1', lng: 'en-US', session: PLAYBACK_ONLY, api });
    expect(await screen.findByRole('button', { name: 'Jump to 0:09: whoami' })).toBeInTheDocument();
    expect(screen.getByRole('slider', { name: 'Position' })).toBeInTheDocument();
    const bar = within(screen.getByRole('toolbar', { name: 'View' }));
    for (const name of ['Zoom out', 'Zoom in', 'Fit to window', 'Full screen']) expect(bar.getByRole('button', { name })).toBeInTheDocument();
  });
});
