import './svg';
import { renderPlugin } from '@/core/testing';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import dashboard from '../../../plugins/dashboard';
import { admin, systemLoad } from './fixtures';

vi.setConfig({ testTimeout: 30_000 });

/*
 * The recording folder's free space on the monitoring page (issue 30 §2): a gauge of its own, and a warning while it
 * is below the server's threshold. A 1.3.9 server sends no `disk.recording`: no gauge, no warning.
 */

const MB = 1024 * 1024;
const withRecording = (recording: { total: number; available: number; usedPercent: number; minFree: number; low: boolean }) => ({
  'GET /overview/ps': { ...systemLoad, disk: { ...systemLoad.disk, recording } },
});

describe('monitoring: recording storage', () => {
  it('warns while the recording folder is below the threshold, and shows its gauge', async () => {
    await renderPlugin(dashboard, {
      route: '/monitoring',
      session: admin(),
      api: withRecording({ total: 2048 * MB, available: 512 * MB, usedPercent: 75, minFree: 1024 * MB, low: true }),
    });
    const gauge = await screen.findByRole('region', { name: '录像存储' });
    expect(within(gauge).getByText('2.00 GB')).toBeInTheDocument();
    expect(within(gauge).getByText('512.00 MB')).toBeInTheDocument();
    expect(within(gauge).getByText('1.00 GB')).toBeInTheDocument();
    expect(within(gauge).getByRole('progressbar', { name: '录像存储 75%' })).toBeInTheDocument();
    expect(screen.getByText('录像存储空间不足')).toBeInTheDocument();
    expect(screen.getByText(/录像目录所在磁盘仅剩 512\.00 MB，低于告警阈值 1\.00 GB/)).toBeInTheDocument();
  });

  it('shows the gauge without a warning while there is room', async () => {
    await renderPlugin(dashboard, {
      route: '/monitoring',
      session: admin(),
      api: withRecording({ total: 2048 * MB, available: 1536 * MB, usedPercent: 25, minFree: 1024 * MB, low: false }),
    });
    expect(await screen.findByRole('region', { name: '录像存储' })).toBeInTheDocument();
    expect(screen.queryByText('录像存储空间不足')).toBeNull();
  });

  it('says it in English', async () => {
    await renderPlugin(dashboard, {
      route: '/monitoring',
      session: admin(),
      lng: 'en-US',
      api: withRecording({ total: 2048 * MB, available: 100 * MB, usedPercent: 95, minFree: 1024 * MB, low: true }),
    });
    expect(await screen.findByRole('region', { name: 'Recording storage' })).toBeInTheDocument();
    expect(screen.getByText('Recording storage is running out')).toBeInTheDocument();
    expect(screen.getByText(/Only 100\.00 MB is left on the recording folder's disk, below the warning threshold of 1\.00 GB/)).toBeInTheDocument();
  });

  it('a 1.3.9 server (no disk.recording): no gauge, no warning', async () => {
    await renderPlugin(dashboard, { route: '/monitoring', session: admin(), api: { 'GET /overview/ps': systemLoad } });
    await screen.findByRole('region', { name: '硬盘' });
    expect(screen.queryByRole('region', { name: '录像存储' })).toBeNull();
  });
});
