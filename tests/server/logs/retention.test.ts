import { describe, expect, it, vi } from 'vitest';
import type { TimerHandle, Timers } from '../../../server/lib/timers.ts';
import { createRetention, keepDays, PURGE_EVERY_MS } from '../../../server/modules/logs/retention.ts';
import { ADMIN_PASSWORD, type Harness, startHarness } from '../harness.ts';
import { insertLoginLog } from '../overview/rows.ts';

const DAY = 24 * 60 * 60 * 1000;
const setLimit = (h: Harness, value: string) => h.db.updateTable('properties').set({ value }).where('name', '=', 'login-log-saved-limit').execute();
const ids = async (h: Harness) => (await h.db.selectFrom('loginLogs').select('id').orderBy('id').execute()).map((r) => r.id);

describe('login-log retention (login-log-saved-limit, days)', () => {
  it('deletes rows older than the limit at start, keeping those whose login is still live', async () => {
    const h = await startHarness();
    await setLimit(h, '30');
    const now = h.clock.now();
    await insertLoginLog(h.db, { id: 'old', loginTime: now - 31 * DAY });
    await insertLoginLog(h.db, { id: 'recent', loginTime: now - 29 * DAY });
    await insertLoginLog(h.db, { id: 'failed-old', loginTime: now - 400 * DAY, state: '0', reason: '账号或密码不正确' });
    // A remembered login that keeps being used: its row stays whatever its age (retention signs nobody out).
    const token = await h.login('admin', ADMIN_PASSWORD, { remember: true });
    const live = (await h.db.selectFrom('tokens').select('loginLogId').executeTakeFirstOrThrow()).loginLogId;
    await h.db.updateTable('loginLogs').set({ loginTime: now - 90 * DAY }).where('id', '=', live).execute();

    await h.restart();
    expect(await ids(h)).toEqual([live, 'recent'].sort());
    expect((await h.call('GET', '/account/info', { token })).body.code).toBe(1);
  });

  it('keeps everything when the limit is empty, "-", 0 or not a number (for ever)', async () => {
    expect([keepDays(''), keepDays('-'), keepDays('0'), keepDays('abc'), keepDays(undefined), keepDays('1.5')]).toEqual([null, null, null, null, null, null]);
    expect([keepDays('30'), keepDays(' 360 ')]).toEqual([30, 360]);
    const h = await startHarness();
    await setLimit(h, '');
    await insertLoginLog(h.db, { id: 'ancient', loginTime: 1 });
    await h.restart();
    expect(await ids(h)).toEqual(['ancient']);
  });

  it('runs again every day on an unref timer, and stops', async () => {
    const h = await startHarness();
    await setLimit(h, '1');
    const pending: { fn: () => void; ms: number; handle: TimerHandle & { unref: ReturnType<typeof vi.fn> } }[] = [];
    const timers: Timers = {
      setTimeout: (fn, ms) => {
        const handle = { unref: vi.fn() };
        pending.push({ fn, ms, handle });
        return handle;
      },
      clearTimeout: (handle) => {
        pending.splice(
          pending.findIndex((p) => p.handle === handle),
          1,
        );
      },
    };
    const retention = createRetention({ db: h.db, clock: h.clock, timers });
    await insertLoginLog(h.db, { id: 'a', loginTime: h.clock.now() - 2 * DAY });
    await insertLoginLog(h.db, { id: 'b', loginTime: h.clock.now() - DAY / 2 });
    await retention.start();
    expect(await ids(h)).toEqual(['b']);
    expect(pending.map((p) => p.ms)).toEqual([PURGE_EVERY_MS]);
    expect(pending[0]!.handle.unref).toHaveBeenCalled();

    // A day later 'b' is past the limit: the timer's run deletes it and schedules the next day.
    h.clock.advance(DAY);
    pending.shift()!.fn();
    await vi.waitFor(async () => expect(await ids(h)).toEqual([]));
    await vi.waitFor(() => expect(pending).toHaveLength(1));

    retention.stop();
    expect(pending).toHaveLength(0);
  });
});
