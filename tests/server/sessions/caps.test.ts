import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshd, type TestSshd } from '../sshd.ts';
import { eventually, PROMPT, terminalWorld } from './helpers.ts';

/*
 * Issue 28 rule 6: per-account caps on live sessions and on POST /sessions per minute, with clear refusals in both
 * languages. Small caps through the environment (the defaults are 10 live and 30 a minute).
 */

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startSshd();
});
afterAll(() => sshd?.stop());

describe('per-account session caps', () => {
  it('POST /sessions: at most N a minute per account, refused with -1 in both languages; others unaffected', async () => {
    const w = await terminalWorld(sshd, { env: { JUMPGATE_SESSION_CREATE_PER_MINUTE: '3' } });
    const url = `/sessions?assetId=${w.web}&mode=native`;
    for (let i = 0; i < 3; i++) await w.api.ok('POST', url);
    const refused = await w.api.call('POST', url);
    expect(refused.body).toMatchObject({ code: -1, message: '创建会话过于频繁：每分钟最多 3 个，请稍后再试' });
    const english = await w.api.call('POST', url, { headers: { 'accept-language': 'en-US' } });
    expect(english.body).toMatchObject({ code: -1, message: 'Too many new sessions: at most 3 a minute; try again shortly' });
    // Nothing was written for the refused calls.
    expect((await w.h.db.selectFrom('sessions').select('id').execute()).length).toBe(3);

    // Another account has its own count.
    const userId = await w.h.createUser({ username: 'alice', type: 'user' });
    await w.api.ok('POST', '/authorised/users', { body: { userIds: [userId], assetId: w.web } });
    await w.as(await w.h.accessToken(userId)).ok('POST', url);

    // A sliding minute: calls made 30 s later are counted until they are a minute old.
    w.h.clock.advance(30_000);
    expect((await w.api.call('POST', url)).body).toMatchObject({ code: -1 });
    w.h.clock.advance(30_001); // the first three are past the minute
    for (let i = 0; i < 3; i++) await w.api.ok('POST', url);
    expect((await w.api.call('POST', url)).body).toMatchObject({ code: -1 });
  });

  it('live sessions: at most N per account, at POST /sessions and at the attach; a closed one frees its place', async () => {
    const w = await terminalWorld(sshd, { env: { JUMPGATE_SESSION_LIVE_MAX: '2' } });
    const first = await w.terminal();
    // Two sessions created while one runs; the first attach takes the last place, the second is refused.
    const a = await w.open();
    const b = await w.open();
    const ta = await w.attach(a);
    await ta.connected();
    expect(ta.closedWith).toBeUndefined();
    const tb = await w.attach(b);
    await tb.closed;
    expect(tb.closedWith).toBe('在线会话数已达上限，请先关闭不用的会话');
    expect(tb.frames).not.toContain('1');
    expect(await w.row(b)).toMatchObject({ status: 'disconnected', code: -1, message: '在线会话数已达上限，请先关闭不用的会话' });
    // Two live: POST /sessions is refused too.
    const refused = await w.api.call('POST', `/sessions?assetId=${w.web}&mode=native`);
    expect(refused.body).toMatchObject({ code: -1, message: '在线会话数已达上限（最多 2 个），请先关闭不用的会话' });
    const english = await w.api.call('POST', `/sessions?assetId=${w.web}&mode=native`, { headers: { 'accept-language': 'en-US' } });
    expect(english.body).toMatchObject({ code: -1, message: 'You have the most sessions open that are allowed (2); close one first' });

    // Another account is not counted against this one.
    const userId = await w.h.createUser({ username: 'alice', type: 'user' });
    await w.api.ok('POST', '/authorised/users', { body: { userIds: [userId], assetId: w.web } });
    const alice = await w.h.accessToken(userId);
    const own = await w.open(w.web, alice);
    const te = await w.attach(own, alice, 'cols=80&rows=24&lng=en-US');
    await te.connected();
    expect(te.closedWith).toBeUndefined();
    await te.close();

    // One ends: its place is free again.
    await first.term.close();
    await eventually('the first session gone', () => w.live.get(first.id) === undefined);
    const d = await w.open();
    const td = await w.attach(d);
    await td.connected();
    expect(td.closedWith).toBeUndefined();
    await td.waitOutput(PROMPT).catch(() => {});
    await Promise.all([td.close(), ta.close()]);
  });

  it('an English socket gets the attach refusal in English', async () => {
    const w = await terminalWorld(sshd, { env: { JUMPGATE_SESSION_LIVE_MAX: '1' } });
    const a = await w.open();
    const b = await w.open();
    const ta = await w.attach(a);
    await ta.connected();
    const tb = await w.attach(b, w.root, 'cols=80&rows=24&lng=en-US');
    await tb.closed;
    expect(tb.closedWith).toBe('You have the most sessions open that are allowed; close one first');
    await ta.close();
  });
});
