import { renderPlugin } from '@/core/testing';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import sessionAudit from '../../../plugins/session-audit';
import { castText } from './cast';
import { assets, session, users } from './fixtures';

vi.mock('@/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@/core')>();
  return { ...core, XtermView: (await import('./fakeXterm')).fakeXtermView(core.createShadowTerminal) };
});
vi.setConfig({ testTimeout: 30_000 });

/*
 * A recording that could not be written (issue 30 §2): the history list and the player say so, with the reason in
 * words and the time it happened. Rows from a 1.3.9 server (no such fields) show nothing more.
 */

const ended = { status: 'disconnected' as const, connectedTime: '2026-11-23 12:00:00', disconnectedTime: '2026-11-23 12:30:00', message: '用户正常退出' };
const full = session({ id: 's1', clientIp: '192.168.1.10', ...ended, recordingIncomplete: true, recordingFailure: 'ENOSPC', recordingFailedAt: '2026-11-23 12:03:14' });
const overnight = session({ id: 's2', clientIp: '192.168.1.22', ...ended, recordingIncomplete: true, recordingFailure: 'EXDEV', recordingFailedAt: '2026-11-24 00:10:00' });
const complete = session({ id: 's3', clientIp: '192.168.1.33', ...ended, recordingIncomplete: false, recordingFailure: '', recordingFailedAt: '0001-01-01 00:00:00' });
const old = session({ id: 's4', clientIp: '192.168.1.44', ...ended });
const api = { 'GET /sessions/paging': { total: 4, items: [full, overnight, complete, old] }, 'GET /users': users, 'GET /assets': assets };

const row = (text: string) => {
  const tr = screen.getByText(text).closest('tr');
  if (!tr) throw new Error(`no row for ${text}`);
  return within(tr);
};

describe('session-audit: an incomplete recording', () => {
  it('the history says why and when, beside the close reason; an unknown code is shown as it is', async () => {
    await renderPlugin(sessionAudit, { route: '/offline-session', api });
    expect(await screen.findByText('192.168.1.10')).toBeInTheDocument();
    expect(row('192.168.1.10').getByText('录像不完整：磁盘已满（12:03:14）')).toBeInTheDocument();
    expect(row('192.168.1.10').getByText('用户正常退出')).toBeInTheDocument();
    // Another day than the connection: the whole date.
    expect(row('192.168.1.22').getByText('录像不完整：EXDEV（2026-11-24 00:10:00）')).toBeInTheDocument();
    expect(row('192.168.1.33').queryByText(/录像不完整/)).toBeNull();
    expect(row('192.168.1.44').queryByText(/录像不完整/)).toBeNull();
  });

  it('in English', async () => {
    await renderPlugin(sessionAudit, { route: '/offline-session', lng: 'en-US', api });
    expect(await screen.findByText('192.168.1.10')).toBeInTheDocument();
    expect(row('192.168.1.10').getByText('Recording incomplete: disk full at 12:03:14')).toBeInTheDocument();
    expect(row('192.168.1.22').getByText('Recording incomplete: EXDEV at 2026-11-24 00:10:00')).toBeInTheDocument();
  });

  it('the player says it above the recording', async () => {
    const recording = castText({ version: 2, width: 40, height: 6, timestamp: 1_700_000_000 }, [[0.5, 'o', '$ ls\r\n']]);
    const playback = {
      'GET /sessions/:id/recording': recording,
      'GET /sessions/:id/commands/paging': { total: 0, items: [] },
      'GET /sessions/:id': full,
    };
    await renderPlugin(sessionAudit, { route: '/term-playback?sessionId=s1', session: { user: { menus: ['offline-session-playback'] } }, api: playback });
    expect(await screen.findByText('录像不完整：磁盘已满（12:03:14）')).toBeInTheDocument();
  });

  it('the player of a complete recording says nothing of it', async () => {
    const recording = castText({ version: 2, width: 40, height: 6, timestamp: 1_700_000_000 }, [[0.5, 'o', '$ ls\r\n']]);
    const playback = {
      'GET /sessions/:id/recording': recording,
      'GET /sessions/:id/commands/paging': { total: 0, items: [] },
      'GET /sessions/:id': complete,
    };
    await renderPlugin(sessionAudit, { route: '/term-playback?sessionId=s3', session: { user: { menus: ['offline-session-playback'] } }, api: playback });
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByText(/录像不完整/)).toBeNull();
  });
});
