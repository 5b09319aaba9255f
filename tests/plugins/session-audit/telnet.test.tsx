import { type FakeSockets, installFakeWebSocket, renderPlugin, reply } from '@/core/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import sessionAudit from '../../../plugins/session-audit';
import { isDesktopSession, isTerminalSession } from '../../../plugins/session-audit/components/api';
import { fakeTerms } from './fakeXterm';
import { assets, session, users } from './fixtures';

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
afterEach(() => {
  sockets.restore();
  vi.restoreAllMocks();
});

const lists = { 'GET /users': users, 'GET /assets': assets };
const ssh = session({ id: 's1', clientIp: '192.168.1.10' });
const telnet = session({ id: 't1', clientIp: '192.168.1.30', protocol: 'telnet', port: 23, assetName: 'switch-01' });
const rdp = session({ id: 'r1', clientIp: '192.168.1.40', protocol: 'rdp', port: 3389, mode: 'guacd', assetName: 'desk-01' });
const vnc = session({ id: 'v1', clientIp: '192.168.1.50', protocol: 'vnc', port: 5900, assetName: 'vnc-01' });
const k8s = session({ id: 'k1', clientIp: '192.168.1.40', protocol: 'kubernetes', port: 6443, assetName: 'k8s-01' });

const row = (text: string) => {
  const tr = screen.getByText(text).closest('tr');
  if (!tr) throw new Error(`no row for ${text}`);
  return within(tr);
};

/** The monitor page's socket path, once it has opened one. */
const monitorSocketPath = async () => {
  await waitFor(() => expect(sockets.all).toHaveLength(1));
  return new URL(sockets.last().url).pathname;
};

describe('session-audit: Telnet sessions', () => {
  it('terminal sessions are SSH and Telnet ones not in guacd mode', () => {
    expect([ssh, telnet, rdp, vnc, { ...ssh, mode: 'guacd' }, { ...ssh, mode: 'terminal' }].map(isTerminalSession)).toEqual([true, true, false, false, false, true]);
  });

  it('监控 on a live Telnet session opens the monitor with its protocol; sessions neither terminal nor desktop cannot be watched', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { user } = await renderPlugin(sessionAudit, {
      route: '/online-session',
      api: { ...lists, 'GET /sessions/paging': { total: 4, items: [ssh, telnet, k8s, vnc] } },
    });
    await screen.findByText('192.168.1.30');
    expect(row('192.168.1.40').getByRole('button', { name: '监控' })).toBeDisabled();
    expect(row('192.168.1.50').getByRole('button', { name: '监控' })).toBeDisabled();
    await user.click(row('192.168.1.30').getByRole('button', { name: '监控' }));
    expect(open).toHaveBeenLastCalledWith('#/term-monitor?sessionId=t1&protocol=telnet', 'term-monitor-t1', expect.stringContaining('width=1024,height=768'));
    await user.click(row('192.168.1.10').getByRole('button', { name: '监控' }));
    expect(open).toHaveBeenLastCalledWith('#/term-monitor?sessionId=s1&protocol=ssh', 'term-monitor-s1', expect.stringContaining('width=1024,height=768'));
  });

  it('回放 of a recorded Telnet session opens the player (asciicast, as SSH); not for one neither terminal nor desktop', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const ended = { status: 'disconnected' as const, disconnectedTime: '2026-11-23 11:02:03' };
    const { user } = await renderPlugin(sessionAudit, {
      route: '/offline-session',
      api: { ...lists, 'GET /sessions/paging': { total: 2, items: [{ ...telnet, ...ended }, { ...k8s, ...ended }] } },
    });
    await screen.findByText('192.168.1.30');
    expect(row('192.168.1.40').getByRole('button', { name: '回放' })).toBeDisabled();
    await user.click(row('192.168.1.30').getByRole('button', { name: '回放' }));
    expect(open).toHaveBeenCalledWith('#/term-playback?sessionId=t1', 'term-playback-t1', expect.stringContaining('width='));
  });

  it('VNC and RDP sessions in mode guacd are desktop ones: 监控 opens /guacd-monitor, 回放 /guacd-playback, with the protocol', async () => {
    const desk = { ...vnc, id: 'v2', clientIp: '192.168.1.60', mode: 'guacd' };
    const native = { ...rdp, id: 'r2', clientIp: '192.168.1.70', mode: 'native' }; // not a desktop row: nothing opens it
    expect([ssh, telnet, rdp, vnc, desk, native].map(isDesktopSession)).toEqual([false, false, true, false, true, false]);
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const live = await renderPlugin(sessionAudit, { route: '/online-session', api: { ...lists, 'GET /sessions/paging': { total: 3, items: [rdp, desk, native] } } });
    await screen.findByText('192.168.1.60');
    expect(row('192.168.1.70').getByRole('button', { name: '监控' })).toBeDisabled();
    await live.user.click(row('192.168.1.40').getByRole('button', { name: '监控' }));
    expect(open).toHaveBeenLastCalledWith('#/guacd-monitor?sessionId=r1&protocol=rdp', 'guacd-monitor-r1', expect.stringContaining('width=1024,height=768'));
    await live.user.click(row('192.168.1.60').getByRole('button', { name: '监控' }));
    expect(open).toHaveBeenLastCalledWith('#/guacd-monitor?sessionId=v2&protocol=vnc', 'guacd-monitor-v2', expect.stringContaining('width=1024,height=768'));
    live.unmount();
    const ended = { status: 'disconnected' as const, disconnectedTime: '2026-11-23 11:02:03' };
    const history = await renderPlugin(sessionAudit, {
      route: '/offline-session',
      api: { ...lists, 'GET /sessions/paging': { total: 3, items: [{ ...rdp, ...ended }, { ...desk, ...ended }, { ...native, ...ended }] } },
    });
    await screen.findByText('192.168.1.60');
    expect(row('192.168.1.70').getByRole('button', { name: '回放' })).toBeDisabled();
    await history.user.click(row('192.168.1.40').getByRole('button', { name: '回放' }));
    expect(open).toHaveBeenLastCalledWith('#/guacd-playback?sessionId=r1&protocol=rdp', 'guacd-playback-r1', expect.stringContaining('width=1280,height=720'));
    await history.user.click(row('192.168.1.60').getByRole('button', { name: '回放' }));
    expect(open).toHaveBeenLastCalledWith('#/guacd-playback?sessionId=v2&protocol=vnc', 'guacd-playback-v2', expect.stringContaining('width=1280,height=720'));
  });

  it('the monitor page watches a Telnet session on /telnet-monitor, as its row says, whatever the link', async () => {
    await renderPlugin(sessionAudit, {
      route: '/term-monitor?sessionId=t1',
      session: { user: { menus: ['online-session-monitor'] } },
      api: { 'GET /sessions/:id': telnet },
    });
    expect(await monitorSocketPath()).toBe('/sessions/t1/telnet-monitor');
    act(() => sockets.last().serverOpens());
    expect(await screen.findByText('正在监控：Ann → switch-01（root@10.0.0.5:23）')).toBeInTheDocument();
  });

  it("the session row's protocol wins over the link's", async () => {
    await renderPlugin(sessionAudit, {
      route: '/term-monitor?sessionId=t1&protocol=ssh',
      session: { user: { menus: ['online-session-monitor'] } },
      api: { 'GET /sessions/:id': telnet },
    });
    expect(await monitorSocketPath()).toBe('/sessions/t1/telnet-monitor');
  });

  it("when the row cannot be read, the link's protocol decides; without one, SSH", async () => {
    const view = await renderPlugin(sessionAudit, {
      route: '/term-monitor?sessionId=t1&protocol=telnet',
      session: { user: { menus: ['online-session-monitor'] } },
      api: { 'GET /sessions/:id': reply.envelope(-1, '获取会话失败') },
    });
    expect(await monitorSocketPath()).toBe('/sessions/t1/telnet-monitor');
    view.unmount();
    sockets.all.length = 0;
    await renderPlugin(sessionAudit, {
      route: '/term-monitor?sessionId=t1',
      session: { user: { menus: ['online-session-monitor'] } },
      api: { 'GET /sessions/:id': reply.envelope(-1, '获取会话失败') },
    });
    expect(await monitorSocketPath()).toBe('/sessions/t1/ssh-monitor');
  });
});
