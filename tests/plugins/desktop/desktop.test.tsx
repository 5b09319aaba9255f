import { expectValidPlugin, installFakeWebSocket, type FakeSockets, renderPlugin, reply } from '@/core/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import desktop from '../../../plugins/desktop';
import sessionKeys from '../../fixtures/session-keys';
import { DesktopPlayer } from '../../../plugins/desktop/components/player';
import { parseRecording } from '../../../plugins/desktop/components/recording';
import { clampSize } from '../../../plugins/desktop/api';
import { fakeViewers, keyframeData, recordingFile } from './fixtures';

// jsdom has no canvas: noVNC's RFB is replaced by a fake behind the viewer interface (see real-novnc.test.ts).
const viewers = vi.hoisted(() => ({ current: null as null | ReturnType<typeof import('./fixtures').fakeViewers> }));
vi.mock('../../../plugins/desktop/components/novnc', () => ({
  loadViewer: async () => {
    if (!viewers.current) throw new Error('no fake viewers');
    return viewers.current.create;
  },
}));

vi.setConfig({ testTimeout: 30_000 });
let sockets: FakeSockets;
beforeEach(() => {
  sockets = installFakeWebSocket();
  viewers.current = fakeViewers();
});
afterEach(() => {
  sockets.restore();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const ROUTE = '/access?assetId=a9&assetName=vnc-01&protocol=vnc';
const created = (flags: { copy?: string; paste?: string; protocol?: string } = {}) => () => ({ id: 'd1', copy: '1', paste: '1', protocol: 'vnc', ...flags });

/** Gives the desktop's area (the `application` element) this CSS size; every other element measures 0. */
function viewerArea(width: number, height: number) {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const w = this.getAttribute('role') === 'application' ? width : 0;
    const h = this.getAttribute('role') === 'application' ? height : 0;
    return { x: 0, y: 0, top: 0, left: 0, right: w, bottom: h, width: w, height: h, toJSON: () => ({}) } as DOMRect;
  });
}
const binary = (socket: ReturnType<FakeSockets['last']>, ...b: number[]) =>
  act(() => socket.onmessage?.(new MessageEvent('message', { data: Uint8Array.from(b).buffer })));

async function openDesktop(flags: { copy?: string; paste?: string } = {}) {
  const view = await renderPlugin(desktop, { extraPlugins: [sessionKeys], route: ROUTE, api: { 'POST /sessions': created(flags), 'POST /sessions/:id/connect': null } });
  await waitFor(() => expect(sockets.all).toHaveLength(1));
  const socket = sockets.last();
  act(() => socket.serverOpens());
  act(() => socket.serverSends('1'));
  await screen.findByText('已连接');
  const viewer = viewers.current?.all[0];
  if (!viewer) throw new Error('no viewer');
  return { ...view, socket, viewer };
}

describe('desktop plugin: /access', () => {
  it('is a valid plugin', async () => {
    await expectValidPlugin(desktop, [sessionKeys]);
  });

  it('creates a guacd session, opens /sessions/:id/vnc as the viewer’s channel, connected at 1; title = asset name', async () => {
    const { api, socket, viewer } = await openDesktop();
    expect(api.callsTo('POST /sessions')[0]?.query).toEqual({ assetId: 'a9', mode: 'guacd' });
    const url = new URL(socket.url);
    expect(url.pathname).toBe('/sessions/d1/vnc');
    expect(url.searchParams.get('X-Auth-Token')).toBe('test-token');
    expect(viewer.options.viewOnly).toBe(false);
    expect(document.title).toBe('vnc-01');
    await waitFor(() => expect(api.callsTo('POST /sessions/:id/connect')).toHaveLength(1));
    binary(socket, 0, 0, 0, 1);
    expect(viewer.received.map((b) => Array.from(b))).toEqual([[0, 0, 0, 1]]);
  });

  it('sends the viewer area’s CSS size at open as width and height (VNC ignores them)', async () => {
    viewerArea(1500.6, 900.2);
    const { socket } = await openDesktop();
    const url = new URL(socket.url);
    expect(url.pathname).toBe('/sessions/d1/vnc');
    expect([url.searchParams.get('width'), url.searchParams.get('height')]).toEqual(['1501', '900']);
  });

  it('opens an RDP asset on /sessions/:id/rdp with the viewer area’s size, clamped to 640–3840 × 480–2160', async () => {
    viewerArea(5000, 300);
    const { api } = await renderPlugin(desktop, {
      extraPlugins: [sessionKeys],
      route: '/access?assetId=a7&assetName=win-01&protocol=rdp',
      api: { 'POST /sessions': created({ protocol: 'rdp' }), 'POST /sessions/:id/connect': null },
    });
    await waitFor(() => expect(sockets.all).toHaveLength(1));
    const url = new URL(sockets.last().url);
    expect(url.pathname).toBe('/sessions/d1/rdp');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ width: '3840', height: '480', 'X-Auth-Token': 'test-token' });
    expect(api.callsTo('POST /sessions')[0]?.query).toEqual({ assetId: 'a7', mode: 'guacd' });
    act(() => sockets.last().serverOpens());
    act(() => sockets.last().serverSends('1'));
    expect(await screen.findByText('已连接')).toBeInTheDocument();
    expect(document.title).toBe('win-01');
  });

  it('clamps sizes to integers within the limits (unmeasurable areas get the least)', () => {
    expect(clampSize(0, 0)).toEqual({ width: 640, height: 480 });
    expect(clampSize(Number.NaN, 99_999)).toEqual({ width: 640, height: 2160 });
    expect(clampSize(1023.5, 767.4)).toEqual({ width: 1024, height: 767 });
    expect(clampSize(639, 481)).toEqual({ width: 640, height: 481 });
  });

  it('the protocol the server answers wins over the link’s', async () => {
    await renderPlugin(desktop, {
      extraPlugins: [sessionKeys],
      route: ROUTE,
      api: { 'POST /sessions': created({ protocol: 'rdp' }), 'POST /sessions/:id/connect': null },
    });
    await waitFor(() => expect(sockets.all).toHaveLength(1));
    expect(new URL(sockets.last().url).pathname).toBe('/sessions/d1/rdp');
  });

  it('a protocol it does not open is said, not opened: in the link (no session created) or in the server’s answer', async () => {
    const link = await renderPlugin(desktop, { extraPlugins: [sessionKeys], route: '/access?assetId=a3&assetName=sw&protocol=telnet' });
    expect(await screen.findByText('远程桌面不能打开 TELNET 协议的会话（支持 VNC、RDP）')).toBeInTheDocument();
    expect(link.api.callsTo('POST /sessions')).toHaveLength(0);
    link.unmount();
    const answer = await renderPlugin(desktop, {
      extraPlugins: [sessionKeys],
      route: ROUTE,
      api: { 'POST /sessions': created({ protocol: 'kubernetes' }) },
    });
    expect(await screen.findByText('远程桌面不能打开 KUBERNETES 协议的会话（支持 VNC、RDP）')).toBeInTheDocument();
    expect(answer.api.callsTo('POST /sessions')).toHaveLength(1);
    expect(sockets.all).toHaveLength(0);
  });

  it('says an unknown protocol in English too', async () => {
    await renderPlugin(desktop, { extraPlugins: [sessionKeys], route: '/access?assetId=a3&assetName=sw&protocol=telnet', lng: 'en-US' });
    expect(await screen.findByText('The remote desktop cannot open TELNET sessions (VNC and RDP only)')).toBeInTheDocument();
  });

  it('shows the server’s reason when it closes with 0<reason>', async () => {
    const { socket } = await openDesktop();
    act(() => socket.serverSends('0管理员强制断开了此会话'));
    expect(await screen.findByText('管理员强制断开了此会话')).toBeInTheDocument();
    expect(screen.getByText('会话已断开')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '重新连接' })).toBeInTheDocument();
  });

  it('the toolbar sends Ctrl+Alt+Del, Win and the combinations as keysyms, pressed then released in reverse', async () => {
    const { user, viewer } = await openDesktop();
    await user.click(screen.getByRole('button', { name: 'Ctrl+Alt+Del' }));
    expect(viewer.keys).toEqual([
      [0xffe3, 'ControlLeft', true],
      [0xffe9, 'AltLeft', true],
      [0xffff, 'Delete', true],
      [0xffff, 'Delete', false],
      [0xffe9, 'AltLeft', false],
      [0xffe3, 'ControlLeft', false],
    ]);
    viewer.keys.length = 0;
    await user.click(screen.getByRole('button', { name: 'Win' }));
    expect(viewer.keys).toEqual([
      [0xffeb, 'MetaLeft', true],
      [0xffeb, 'MetaLeft', false],
    ]);
    viewer.keys.length = 0;
    await user.click(screen.getByRole('button', { name: '组合键' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Win+R（运行）' }));
    expect(viewer.keys).toEqual([
      [0xffeb, 'MetaLeft', true],
      [0x72, 'KeyR', true],
      [0x72, 'KeyR', false],
      [0xffeb, 'MetaLeft', false],
    ]);
  });

  it('clipboard both ways when copy and paste are 1', async () => {
    const { user, viewer } = await openDesktop();
    act(() => viewer.events.clipboard?.('from the remote'));
    await user.click(screen.getByRole('button', { name: '剪贴板' }));
    expect(screen.getByRole('textbox', { name: '远程剪贴板' })).toHaveValue('from the remote');
    await user.type(screen.getByRole('textbox', { name: '发送到远程的文字' }), 'hello');
    await user.click(screen.getByRole('button', { name: '发送到远程' }));
    expect(viewer.pasted).toEqual(['hello']);
  });

  it('clipboard disabled with the reason when the strategy forbids copy and paste', async () => {
    const { user, viewer } = await openDesktop({ copy: '0', paste: '0' });
    act(() => viewer.events.clipboard?.('secret'));
    await user.click(screen.getByRole('button', { name: '剪贴板' }));
    expect(screen.getByRole('textbox', { name: '远程剪贴板' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: '远程剪贴板' })).toHaveValue('');
    expect(screen.getByText('策略禁止复制：远程剪贴板不会传到本地。')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: '发送到远程的文字' })).toBeDisabled();
    expect(screen.getByText('策略禁止粘贴：本地文字不能发送到远程。')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '发送到远程' })).toBeDisabled();
    expect(screen.getByRole('button', { name: '复制到本地' })).toBeDisabled();
  });

  it('scaling switches fit / 1:1; disconnect asks first', async () => {
    const { user, viewer } = await openDesktop();
    await user.click(screen.getByRole('radio', { name: '原始大小 (1:1)' }));
    await waitFor(() => expect(viewer.scales.at(-1)).toBe('native'));
    await user.click(screen.getByRole('radio', { name: '适应窗口' }));
    await waitFor(() => expect(viewer.scales.at(-1)).toBe('fit'));
    await user.click(screen.getByRole('button', { name: '断开' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('确定要断开此会话吗？');
    await user.click(within(dialog).getByRole('button', { name: '取消' }));
    expect(viewer.disconnected).toBe(false);
    await user.click(screen.getByRole('button', { name: '断开' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '断开' }));
    await waitFor(() => expect(viewer.disconnected).toBe(true));
  });

  it('pings 4 every 10 s once connected', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { socket } = await openDesktop();
      vi.advanceTimersByTime(20_000);
      expect(socket.sent.filter((f) => f === '4')).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('desktop plugin: /guacd-monitor', () => {
  const watch = (route: string, row: unknown) =>
    renderPlugin(desktop, { extraPlugins: [sessionKeys], route, session: { user: { menus: ['online-session-monitor'] } }, api: { 'GET /sessions/:id': row } });

  it('watches /sessions/:id/vnc-monitor view only and shows why it ended', async () => {
    const { api } = await watch('/guacd-monitor?sessionId=d7', { id: 'd7', protocol: 'vnc', mode: 'guacd' });
    await waitFor(() => expect(sockets.all).toHaveLength(1));
    expect(api.callsTo('GET /sessions/:id')[0]?.path).toBe('/sessions/d7');
    const socket = sockets.last();
    expect(new URL(socket.url).pathname).toBe('/sessions/d7/vnc-monitor');
    expect(viewers.current?.all[0]?.options.viewOnly).toBe(true);
    act(() => socket.serverOpens());
    act(() => socket.serverSends('1'));
    expect(await screen.findByText('只读监控中')).toBeInTheDocument();
    act(() => socket.serverSends('0用户已断开连接'));
    expect(await screen.findByText('用户已断开连接')).toBeInTheDocument();
    expect(screen.getByText('监控已结束')).toBeInTheDocument();
  });

  it('watches an RDP session on /sessions/:id/rdp-monitor, as its row says, whatever the link', async () => {
    await watch('/guacd-monitor?sessionId=r7&protocol=vnc', { id: 'r7', protocol: 'rdp', mode: 'guacd' });
    await waitFor(() => expect(sockets.all).toHaveLength(1));
    expect(new URL(sockets.last().url).pathname).toBe('/sessions/r7/rdp-monitor');
  });

  it('falls back to the link’s protocol when the row cannot be read, then to VNC', async () => {
    const first = await watch('/guacd-monitor?sessionId=r7&protocol=rdp', reply.http(404, { message: 'not found' }));
    await waitFor(() => expect(sockets.all).toHaveLength(1));
    expect(new URL(sockets.last().url).pathname).toBe('/sessions/r7/rdp-monitor');
    first.unmount();
    await watch('/guacd-monitor?sessionId=r8', reply.envelope(0, '会话不存在'));
    await waitFor(() => expect(sockets.all).toHaveLength(2));
    expect(new URL(sockets.last().url).pathname).toBe('/sessions/r8/vnc-monitor');
    expect(screen.queryByText('会话不存在')).toBeNull(); // read quietly: no toast
  });

  it('a session of a protocol it does not show is said, not watched', async () => {
    await watch('/guacd-monitor?sessionId=s1', { id: 's1', protocol: 'ssh', mode: 'native' });
    expect(await screen.findByText('远程桌面不能打开 SSH 协议的会话（支持 VNC、RDP）')).toBeInTheDocument();
    expect(sockets.all).toHaveLength(0);
  });

  it('is closed without online-session-monitor (403), and opens nothing', async () => {
    await renderPlugin(desktop, { extraPlugins: [sessionKeys], route: '/guacd-monitor?sessionId=d7', session: { user: { menus: ['online-session'] } } });
    expect(await screen.findByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
    expect(sockets.all).toHaveLength(0);
  });
});

describe('desktop plugin: /guacd-playback', () => {
  it('fetches the recording, plays the handshake, then the records; shows the truncated tail', async () => {
    viewers.current = fakeViewers({ handshake: true });
    const file = recordingFile([{ type: 0, ms: 0, data: Uint8Array.of(0, 0, 0, 0) }], { cut: 0 });
    const withTail = new Uint8Array([...file, 0, 0, 0]);
    const fetch = vi.fn(async () => new Response(withTail, { status: 200, headers: { 'content-type': 'application/octet-stream' } }));
    vi.stubGlobal('fetch', fetch);
    await renderPlugin(desktop, { extraPlugins: [sessionKeys], route: '/guacd-playback?sessionId=d3', session: { user: { menus: ['offline-session-playback'] } } });
    await waitFor(() => expect(viewers.current?.all).toHaveLength(1));
    expect(String(fetch.mock.calls[0]?.[0 as never])).toContain('/sessions/d3/recording?');
    expect(await screen.findByText('录像末尾不完整（录制中断），已播放到最后一条完整记录。')).toBeInTheDocument();
    const viewer = viewers.current?.all[0];
    await waitFor(() => expect(viewer?.received).toHaveLength(5));
    expect(Array.from(viewer?.received[4] ?? [])).toEqual([0, 0, 0, 0]);
    expect(viewer?.options.viewOnly).toBe(true);
  });

  it('the screen is aria-busy until its first picture and while a seek is under way (done: the keyframe handed over)', async () => {
    viewers.current = fakeViewers({ handshake: true });
    const file = recordingFile([
      { type: 0, ms: 0, data: Uint8Array.of(0, 0, 0, 0) },
      { type: 2, ms: 60_000, data: keyframeData(4, 2, 0x44) },
      { type: 0, ms: 3_600_000, data: Uint8Array.of(0, 0, 0, 0) },
    ]);
    // The download is held until the page was seen busy: on a loaded machine the first picture could otherwise come
    // before the first look.
    let deliver: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      deliver = resolve;
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        await held;
        return new Response(new Uint8Array(file), { status: 200, headers: { 'content-type': 'application/octet-stream' } });
      }),
    );
    await renderPlugin(desktop, { extraPlugins: [sessionKeys], route: '/guacd-playback?sessionId=d3', session: { user: { menus: ['offline-session-playback'] } } });
    const region = await screen.findByRole('img', { name: /d3/ });
    expect(region).toHaveAttribute('aria-busy', 'true');
    deliver();
    await waitFor(() => expect(region).toHaveAttribute('aria-busy', 'false'));
    const viewer = viewers.current?.all[0];
    if (!viewer) throw new Error('no viewer');
    const before = viewer.received.length;
    const slider = screen.getByRole('slider', { name: '播放进度' });
    fireEvent.change(slider, { target: { value: '120000' } });
    expect(region).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(region).toHaveAttribute('aria-busy', 'false'));
    // Not busy any more only once the keyframe's full-screen update reached the viewer.
    const keyframe = viewer.received.slice(before).find((m) => m.length === 28 + 4 * 2 * 4);
    expect(keyframe?.subarray(28).every((b) => b === 0x44)).toBe(true);
  });

  it('shows the server’s refusal', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ code: 404, message: '录像文件不存在' }), { status: 200, headers: { 'content-type': 'application/json' } })));
    await renderPlugin(desktop, { extraPlugins: [sessionKeys], route: '/guacd-playback?sessionId=d3', session: { user: { menus: ['offline-session-playback'] } } });
    expect(await screen.findByText('录像文件不存在')).toBeInTheDocument();
  });
});

describe('DesktopPlayer: seeking', () => {
  it('seeks by the last keyframe (inflated, as a full-screen Raw update) then the records after it; back before it restarts', async () => {
    const made = fakeViewers({ handshake: true });
    const recording = parseRecording(
      recordingFile([
        { type: 0, ms: 0, data: Uint8Array.of(10) },
        { type: 2, ms: 1000, data: keyframeData(4, 2, 0x33) },
        { type: 0, ms: 1500, data: Uint8Array.of(11) },
        { type: 0, ms: 3000, data: Uint8Array.of(12) },
      ]),
    );
    const player = new DesktopPlayer({ recording, create: made.create, target: document.createElement('div'), onState: () => undefined });
    await player.seek(2000);
    const first = made.all[0];
    if (!first) throw new Error('no viewer');
    await waitFor(() => expect(first.received.length).toBeGreaterThanOrEqual(6));
    const after = first.received.slice(4); // past version, types, result, ServerInit
    expect(after).toHaveLength(2);
    const update = after[0] as Uint8Array;
    expect(update.length).toBe(28 + 4 * 2 * 4);
    expect(update.subarray(28).every((b) => b === 0x33)).toBe(true);
    expect(Array.from(after[1] as Uint8Array)).toEqual([11]);
    await player.seek(500); // before the keyframe: a new viewer from the start
    const second = made.all[1];
    if (!second) throw new Error('no second viewer');
    expect(first.disconnected).toBe(true);
    await waitFor(() => expect(second.received.length).toBe(5));
    expect(Array.from(second.received[4] as Uint8Array)).toEqual([10]);
    player.dispose();
  });
});
