import { renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import terminal from '../../../plugins/terminal';
import { networkRates } from '../../../plugins/terminal/components/StatsPanel';
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
    expect(within(drawer).getByText('3 天')).toBeInTheDocument();
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

describe('network rates', () => {
  it('divides by the real time between two samples', () => {
    const before = { eth0: { ipv4: '', ipv6: '', rx: 1000, tx: 500 }, lo: { ipv4: '', ipv6: '', rx: 10, tx: 10 } };
    const after = { eth0: { ipv4: '', ipv6: '', rx: 21_000, tx: 1500 }, lo: { ipv4: '', ipv6: '', rx: 5, tx: 10 } };
    expect(networkRates(before, after, 4)).toEqual({ eth0: { rx: 5000, tx: 250 } }); // lo went back: no rate
    expect(networkRates(null, after, 4)).toEqual({});
  });
});
