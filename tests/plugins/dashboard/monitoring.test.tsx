import './svg';
import { renderPlugin } from '@/core/testing';
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import dashboard from '../../../plugins/dashboard';
import { ioInMBps, loadState, toMBps } from '../../../plugins/dashboard/components/load';
import { admin, systemLoad } from './fixtures';

vi.setConfig({ testTimeout: 30_000 });

const API = { 'GET /overview/ps': systemLoad };

let hidden = false;
Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
const setHidden = (value: boolean) =>
  act(() => {
    hidden = value;
    document.dispatchEvent(new Event('visibilitychange'));
  });

afterEach(() => {
  hidden = false;
  vi.useRealTimers();
});

describe('monitoring', () => {
  it('shows the gauges: load state, CPU, memory and disk, with the date', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 25, 10, 0, 0)); // a Wednesday
    await renderPlugin(dashboard, { route: '/monitoring', session: admin(), api: API });
    const load = await screen.findByRole('region', { name: '负载' });
    expect(within(load).getByText('缓慢')).toBeInTheDocument(); // percent 0.85
    expect(within(load).getByRole('progressbar', { name: '负载 85%' })).toBeInTheDocument();
    expect(within(load).getByText('1.70')).toBeInTheDocument();
    const cpu = screen.getByRole('region', { name: 'CPU' });
    expect(within(cpu).getByText('4 个')).toBeInTheDocument();
    expect(within(cpu).getByText('Intel(R) X...')).toBeInTheDocument();
    expect(within(cpu).getByText('Intel(R) X...')).toHaveAccessibleName('Intel(R) Xeon(R) Gold 6230');
    const memory = screen.getByRole('region', { name: '内存' });
    expect(within(memory).getByText('8.00 GB')).toBeInTheDocument();
    expect(within(memory).getByText('75.5%')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: '硬盘' })).getByText('60.00 GB')).toBeInTheDocument();
    expect(screen.getByText('2026年11月25日 星期三')).toBeInTheDocument();
  });

  it('charts the four series with accessible names; network and disk I/O in MB/s (bytes/s ÷ 10^6)', async () => {
    const { user } = await renderPlugin(dashboard, { route: '/monitoring', session: admin(), api: API });
    for (const name of ['CPU负载', '内存负载', '网络吞吐', '磁盘IO']) {
      expect(await screen.findByRole('figure', { name })).toBeInTheDocument();
    }
    const net = screen.getByRole('region', { name: '网络吞吐' });
    await user.click(within(net).getByRole('button', { name: '以表格显示「网络吞吐」' }));
    const rows = within(within(net).getByRole('table', { name: '网络吞吐' })).getAllByRole('row');
    expect(rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent))).toEqual([
      ['时间', '接收（MB/s）', '发送（MB/s）'],
      ['10:00:00', '2.5', '0.13'],
      ['10:00:05', '12.34', '0.01'],
    ]);
    const disk = screen.getByRole('region', { name: '磁盘IO' });
    await user.click(within(disk).getByRole('button', { name: '以表格显示「磁盘IO」' }));
    expect(within(disk).getByRole('table', { name: '磁盘IO' })).toHaveTextContent('10:00:053.50.25');
  });

  it('asks every 5 s while the page is shown, never while it is hidden, and at once when shown again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = await renderPlugin(dashboard, { route: '/monitoring', session: admin(), api: API });
    await screen.findByRole('region', { name: '负载' });
    const calls = () => api.callsTo('GET /overview/ps').length;
    expect(calls()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(calls()).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(calls()).toBe(3);

    await setHidden(true);
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(calls()).toBe(3);

    await setHidden(false);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(calls()).toBe(4);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(calls()).toBe(5);
  });

  it('speaks English', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 25, 10, 0, 0));
    await renderPlugin(dashboard, { route: '/monitoring', lng: 'en-US', session: admin(), api: API });
    const load = await screen.findByRole('region', { name: 'Load' });
    expect(within(load).getByText('Slow')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'CPU' })).getByText('4 cores')).toBeInTheDocument();
    expect(screen.getByText('Wednesday, November 25, 2026')).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'Network throughput' })).toBeInTheDocument();
  });
});

describe('load words and units', () => {
  it('names the load as 1.3.9 does', () => {
    expect([0, 0.69, 0.7, 0.79, 0.8, 0.89, 0.9, 1.5].map(loadState)).toEqual(['smooth', 'smooth', 'normal', 'normal', 'slow', 'slow', 'congested', 'congested']);
  });
  it('shows bytes per second as MB/s, 10^6 bytes', () => {
    expect(toMBps(1_000_000)).toBe(1);
    expect(ioInMBps([{ time: 't', read: 1_234_567, write: 0 }])).toEqual([{ time: 't', read: 1.23, write: 0 }]);
  });
});
