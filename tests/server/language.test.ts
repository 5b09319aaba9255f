import { describe, expect, it } from 'vitest';
import { both, fromAcceptLanguage, say, text } from '../../server/lib/i18n.ts';
import { SUPER_ADMIN_ID, SUPER_ADMIN_NICKNAME } from '../../server/permissions/effective.ts';
import { CLOSE } from '../../server/modules/sessions/live.ts';
import { ADMIN_PASSWORD, startHarness } from './harness.ts';
import { sessionsHarness, TermClient } from './sessions/helpers.ts';

// The server speaks the caller's language (issue 27, "Words"): `Accept-Language` (the console's API client) or `?lng=`
// (sockets, downloads); zh-CN by default. Stored texts stay zh-CN.

const EN = { 'accept-language': 'en-US' };

describe('server messages in the caller’s language', () => {
  it('login errors: zh-CN by default and for zh, English for en-US and for an English browser', async () => {
    const h = await startHarness();
    const wrong = (headers?: Record<string, string>) => h.call('POST', '/login', { body: { username: 'admin', password: 'not-the-password' }, headers });
    expect((await wrong()).body).toMatchObject({ code: -1, message: '您输入的账号或密码不正确' });
    expect((await wrong({ 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' })).body.message).toBe('您输入的账号或密码不正确');
    expect((await wrong(EN)).body.message).toBe('Wrong username or password');
    expect((await wrong({ 'accept-language': 'en-GB,en;q=0.9' })).body.message).toBe('Wrong username or password');
    expect((await h.call('POST', '/login?lng=en-US', { body: { username: 'admin', password: 'x'.repeat(100) } })).body).toEqual({ code: -1, message: 'The password is too long' });
    // The login log keeps its reason in zh-CN, whoever asked.
    const reasons = await h.db.selectFrom('loginLogs').select('reason').execute();
    expect(reasons.map((r) => r.reason)).toEqual(expect.arrayContaining(['账号或密码不正确', '密码过长']));
    // …and 登录日志 lists it in the reader's language.
    const admin = await h.login('admin', ADMIN_PASSWORD);
    const listed = async (headers?: Record<string, string>) =>
      ((await h.call('GET', '/login-logs/paging?pageIndex=1&pageSize=50', { token: admin, headers })).body.data as { items: { reason: string }[] }).items.map((r) => r.reason);
    expect(await listed()).toEqual(expect.arrayContaining(['账号或密码不正确', '密码过长']));
    expect(await listed(EN)).not.toContain('账号或密码不正确');
    expect((await listed(EN)).filter((r) => r !== '')).not.toEqual(expect.arrayContaining([expect.stringMatching(/[\u4e00-\u9fff]/)]));
  });

  it('an expired token, a refused session and a validation error are said in English for en-US', async () => {
    const h = await startHarness();
    expect((await h.call('GET', '/account/info', { token: 'nope', headers: EN })).body).toEqual({ code: 401, message: 'Your session has expired. Please log in again.' });
    const id = await h.createUser({ username: 'ann', password: 'ann-password-1', type: 'user' });
    const ann = await h.accessToken(id);
    const refused = await h.call('POST', '/sessions', { token: ann, query: { assetId: 'no-such-asset', mode: 'native' }, headers: EN });
    expect(refused.body.code).toBe(-1);
    expect(refused.body.message).not.toMatch(/[\u4e00-\u9fff]/);
    const admin = await h.login('admin', ADMIN_PASSWORD);
    const bad = async (headers?: Record<string, string>) => (await h.call('GET', '/users/paging', { token: admin, query: { pageIndex: 'x' }, headers })).body;
    expect(await bad(EN)).toMatchObject({ code: 400, message: expect.stringMatching(/^pageIndex: [ -~]+$/) });
    expect(await bad()).toMatchObject({ code: 400, message: expect.stringMatching(/^pageIndex: .*[\u4e00-\u9fff]/) });
  });

  it('the super admin’s seeded nickname is said in the caller’s language; a nickname someone gave is kept', async () => {
    const h = await startHarness();
    const admin = await h.login('admin', ADMIN_PASSWORD);
    const info = async (headers?: Record<string, string>) => (await h.call('GET', '/account/info', { token: admin, headers })).body.data as { nickname: string };
    expect((await info()).nickname).toBe('超级管理员');
    expect((await info(EN)).nickname).toBe('Super administrator');
    const listed = (await h.call('GET', '/users/paging', { token: admin, query: { pageIndex: '1', pageSize: '10' }, headers: EN })).body.data as { items: { id: string; nickname: string }[] };
    expect(listed.items.find((u) => u.id === SUPER_ADMIN_ID)?.nickname).toBe('Super administrator');
    expect(((await h.call('GET', `/users/${SUPER_ADMIN_ID}`, { token: admin, headers: EN })).body.data as { nickname: string }).nickname).toBe('Super administrator');
    const login = await h.call('POST', '/login', { body: { username: 'admin', password: ADMIN_PASSWORD }, headers: EN });
    expect((login.body.data as { info: { nickname: string } }).info.nickname).toBe('Super administrator');

    // Saving the edit form unchanged (it shows the English default) keeps the stored default.
    const detail = (await h.call('GET', `/users/${SUPER_ADMIN_ID}`, { token: admin, headers: EN })).body.data as { username: string; nickname: string; mail: string; roles: string[] };
    const save = (nickname: string) =>
      h.call('PUT', `/users/${SUPER_ADMIN_ID}`, { token: admin, headers: EN, body: { username: detail.username, nickname, type: 'admin', mail: detail.mail, roles: detail.roles } });
    expect((await save(detail.nickname)).body).toMatchObject({ code: 1 });
    const stored = async () => (await h.db.selectFrom('users').select('nickname').where('id', '=', SUPER_ADMIN_ID).executeTakeFirstOrThrow()).nickname;
    expect(await stored()).toBe(SUPER_ADMIN_NICKNAME);
    // A nickname the admin chose is theirs, in every language.
    expect((await save('Root')).body).toMatchObject({ code: 1 });
    expect(await stored()).toBe('Root');
    expect((await info(EN)).nickname).toBe('Root');
    expect((await info()).nickname).toBe('Root');
  });

  it('a session’s close reason: stored in zh-CN, listed in the caller’s language, with no code in the text', async () => {
    const r = await sessionsHarness();
    const id = await r.seedSession({ code: CLOSE.forced.code, message: CLOSE.forced.message });
    const list = async (headers?: Record<string, string>) =>
      ((await r.api.call('GET', '/sessions/paging', { query: { pageIndex: '1', pageSize: '10', status: 'disconnected' }, headers })).body.data as { items: { id: string; code: number; message: string }[] }).items.find((s) => s.id === id);
    expect(await list()).toMatchObject({ code: 802, message: '管理员强制关闭了此会话' });
    expect(await list(EN)).toMatchObject({ code: 802, message: 'An administrator closed this session' });
    expect(((await r.api.call('GET', `/sessions/${id}`, { headers: EN })).body.data as { message: string }).message).toBe('An administrator closed this session');
    const row = await r.h.db.selectFrom('sessions').select('message').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.message).toBe('管理员强制关闭了此会话');
  });

  it('a socket’s closed frame is said in the language of its URL’s `lng`', async () => {
    const r = await sessionsHarness();
    const base = (await r.h.listen()).replace(/^http/, 'ws');
    const frameOf = async (query: string) => {
      const client = await TermClient.open(`${base}/sessions/no-such-session/ssh-monitor?X-Auth-Token=${r.root}${query}`);
      await client.closed;
      return client.frames;
    };
    expect(await frameOf('')).toEqual([`0${CLOSE.notFound.message}`]);
    expect(await frameOf('&lng=en-US')).toEqual(['0Session not found']);
    // A refusal before the handler (no token) too.
    const refused = await TermClient.open(`${base}/sessions/x/ssh-monitor?lng=en-US`);
    await refused.closed;
    expect(refused.frames).toEqual(['0Your session has expired. Please log in again.']);
  });
});

describe('lib/i18n', () => {
  it('says a declared text, a declared text with its detail, a pair, and leaves the rest as written', () => {
    const zh = text('测试用的消息', 'A message for tests');
    expect(say(zh, 'zh-CN')).toBe('测试用的消息');
    expect(say(zh, 'en-US')).toBe('A message for tests');
    expect(say(`${zh}：abc`, 'en-US')).toBe('A message for tests: abc');
    expect(say('没有声明的消息', 'en-US')).toBe('没有声明的消息');
    expect(say(both('两种', 'both'), 'en-US')).toBe('both');
    expect(() => text('测试用的消息', 'Another translation')).toThrow(/two translations/);
  });

  it('picks the language from Accept-Language by its q-values; zh-CN when it names neither', () => {
    expect(fromAcceptLanguage(undefined)).toBe('zh-CN');
    expect(fromAcceptLanguage('fr-FR,de;q=0.8')).toBe('zh-CN');
    expect(fromAcceptLanguage('en')).toBe('en-US');
    expect(fromAcceptLanguage('fr,zh;q=0.5,en;q=0.7')).toBe('en-US');
    expect(fromAcceptLanguage('en;q=0,zh-TW')).toBe('zh-CN');
  });
});
