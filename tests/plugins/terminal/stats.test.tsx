import { renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import terminal from '../../../plugins/terminal';
import { networkRates, uptimeSpan } from '../../../plugins/terminal/components/StatsPanel';
import { connectSocket, fakeSockets, sessionMaker } from './fixtures';

const ROUTE = '/term?assetId=a1&assetName=web-1';
const GiB = 1024 ** 3;

const sample = (rx: number) => ({
  uptime: 3 * 86_400_000,
  hostname: 'web-1.local',
  load1: '0.52',
  load5: '0.40',
  load10: '0.33',
  runningProcess: '2',
  totalProcess: '180',
  memTotal: 8 * GiB,
  memAvailable: 2 * GiB,
  memFree: GiB,
  memBuffers: 100,
  memCached: 200,
  swapTotal: 0,
  swapFree: 0,
  fileSystems: [{ mountPoint: '/', used: 30 * GiB, free: 70 * GiB }],
  network: { eth0: { ipv4: '10.0.0.5', ipv6: '', rx, tx: 0 } },
  cpu: { user: 12.5, nice: 0, system: 3.25, idle: 84.25, ioWait: 0, irq: 0, softIrq: 0, steal: 0, guest: 0 },
});

describe('terminal stats panel', { timeout: 20_000 }, () => {
  it('polls the session stats only while open and shows every section', async () => {
    const sockets = fakeSockets();
    let n = 0;
    const { user, api } = await renderPlugin(terminal, {
      route: ROUTE,
      api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null, 'GET /sessions/:id/stats': () => sample(1000 * ++n) },
    });
    await connectSocket(sockets);
    await screen.findByRole('tab', { name: 'web-1 已连接' });
    expect(api.callsTo('GET /sessions/:id/stats')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: '状态信息' }));
    const drawer = await screen.findByRole('dialog', { name: '状态信息' });
    expect(await within(drawer).findByText('web-1.local')).toBeInTheDocument();
    expect(api.callsTo('GET /sessions/:id/stats')[0]?.path).toBe('/sessions/s1/stats');
    expect(within(drawer).getByText('3天')).toBeInTheDocument();
    expect(within(drawer).getByText('12.50%')).toBeInTheDocument();
    expect(within(drawer).getByText('0.33')).toBeInTheDocument();
    expect(within(drawer).getByRole('progressbar', { name: '内存使用占比' })).toHaveAttribute('aria-valuenow', '0.75');
    expect(within(drawer).getByRole('progressbar', { name: '/ 使用占比' })).toHaveAttribute('aria-valuenow', '0.3');
    expect(within(drawer).getByText('10.0.0.5')).toBeInTheDocument();
    expect(within(drawer).getByRole('region', { name: '磁盘' })).toBeInTheDocument();
    expect(within(drawer).getByRole('combobox', { name: '查询时间间隔' })).toHaveTextContent('5秒');

    await user.click(within(drawer).getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '状态信息' })).toBeNull());
    const calls = api.callsTo('GET /sessions/:id/stats').length;
    await new Promise((r) => setTimeout(r, 50));
    expect(api.callsTo('GET /sessions/:id/stats')).toHaveLength(calls);
  });

  it('shows uptime in days, hours and minutes, and no CPU shares before anything was measured (not a 0 % idle CPU)', async () => {
    const sockets = fakeSockets();
    const zeros = { user: 0, nice: 0, system: 0, idle: 0, ioWait: 0, irq: 0, softIrq: 0, steal: 0, guest: 0 };
    const answers = [
      // A 1.3.9 server's first poll: CPU all zeros; a host up 266 s (the panel said "0 天").
      { ...sample(0), uptime: 266_120, cpu: zeros },
      { ...sample(0), uptime: (2 * 86_400 + 5 * 3600 + 7 * 60 + 42) * 1000 },
    ];
    let n = 0;
    const { user } = await renderPlugin(terminal, {
      route: ROUTE,
      api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null, 'GET /sessions/:id/stats': () => answers[Math.min(n++, 1)] },
    });
    await connectSocket(sockets);
    await screen.findByRole('tab', { name: 'web-1 已连接' });
    await user.click(screen.getByRole('button', { name: '状态信息' }));
    const drawer = await screen.findByRole('dialog', { name: '状态信息' });
    const value = (label: string) => within(drawer).getByText(label).nextElementSibling?.textContent;
    await within(drawer).findByText('web-1.local');
    expect(value('运行时长')).toBe('4分钟');
    expect(value('空闲')).toBe('-');
    expect(value('用户')).toBe('-');
    // The next poll (1 s apart) has measured.
    await user.click(within(drawer).getByRole('combobox', { name: '查询时间间隔' }));
    await user.click(await screen.findByRole('option', { name: '1秒' }));
    await waitFor(() => expect(value('空闲')).toBe('84.25%'), { timeout: 5000 });
    expect(value('运行时长')).toBe('2天5小时7分钟');
  });

  it('English uptime', async () => {
    const sockets = fakeSockets();
    const { user } = await renderPlugin(terminal, {
      route: ROUTE,
      lng: 'en-US',
      api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null, 'GET /sessions/:id/stats': { ...sample(0), uptime: 90_061_000 } },
    });
    await connectSocket(sockets);
    await user.click(await screen.findByRole('button', { name: 'Status' }));
    const drawer = await screen.findByRole('dialog', { name: 'Status' });
    await within(drawer).findByText('web-1.local');
    expect(within(drawer).getByText('Uptime').nextElementSibling).toHaveTextContent('1d 1h 1min');
  });

  it('polls at the chosen interval', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    try {
      const sockets = fakeSockets();
      const { user, api } = await renderPlugin(terminal, {
        route: ROUTE,
        api: { 'POST /sessions': sessionMaker(), 'POST /sessions/:id/connect': null, 'GET /sessions/:id/stats': () => sample(0) },
      });
      await connectSocket(sockets);
      await screen.findByRole('tab', { name: 'web-1 已连接' });
      await user.click(screen.getByRole('button', { name: '状态信息' }));
      const drawer = await screen.findByRole('dialog', { name: '状态信息' });
      await within(drawer).findByText('web-1.local');
      const first = api.callsTo('GET /sessions/:id/stats').length;
      await vi.advanceTimersByTimeAsync(5_000);
      await waitFor(() => expect(api.callsTo('GET /sessions/:id/stats').length).toBe(first + 1));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('uptime span', () => {
  it('to the minute, to the second in the first minute; nothing for a value that is no uptime', () => {
    expect(uptimeSpan(266_120, 1_000_000)).toEqual([1_000_000 - 240_000, 1_000_000]);
    expect(uptimeSpan(42_900, 1_000_000)).toEqual([1_000_000 - 42_000, 1_000_000]);
    expect(uptimeSpan(0, 1)).toBeNull();
    expect(uptimeSpan(-5, 1)).toBeNull();
    expect(uptimeSpan(Number.NaN, 1)).toBeNull();
  });
});

describe('network rates', () => {
  it('divides by the real time between two samples', () => {
    const before = { eth0: { ipv4: '', ipv6: '', rx: 1000, tx: 500 }, lo: { ipv4: '', ipv6: '', rx: 10, tx: 10 } };
    const after = { eth0: { ipv4: '', ipv6: '', rx: 21_000, tx: 1500 }, lo: { ipv4: '', ipv6: '', rx: 5, tx: 10 } };
    expect(networkRates(before, after, 4)).toEqual({ eth0: { rx: 5000, tx: 250 } }); // lo went back: no rate
    expect(networkRates(null, after, 4)).toEqual({});
  });
});
