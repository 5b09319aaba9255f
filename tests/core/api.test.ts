import { ApiError, type CoreEvents } from '@/core';
import { createApiClient, createEventBus, createFakeApi, createMemoryStorage, createSessionStore, type FakeHandlers, reply } from '@/core/testing';
import { createAccountApi } from '../../core/api/account';
import { wsUrlFor } from '../../core/api/client';
import { describe, expect, it } from 'vitest';

const T: Record<string, string> = { 'error.network': '网络异常', 'error.timeout': '请求超时，请稍后重试' };

function setup(handlers: FakeHandlers, options: { adapter?: boolean; timeout?: number } = {}) {
  const fake = createFakeApi(handlers);
  const bus = createEventBus();
  const notes: CoreEvents['notify'][] = [];
  const events: string[] = [];
  bus.on('*', (type) => events.push(type));
  bus.on('notify', (n) => notes.push(n));
  const redirects: string[] = [];
  const session = createSessionStore({ storage: createMemoryStorage(), initial: { token: 'tok-9', user: { type: 'admin', menus: [] } } });
  const api = createApiClient({
    session,
    bus,
    t: (key) => T[key] ?? key,
    redirect: (path) => redirects.push(path),
    adapter: options.adapter === false ? undefined : fake.adapter,
    location: { protocol: 'http:', host: 'console.example:8088' },
    timeout: options.timeout,
  });
  return { api, fake, notes, redirects, events, session };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to reject');
}

describe('API client: spec §8 error catalogue', () => {
  it('sends X-Auth-Token on every request and returns data on body code 1', async () => {
    const { api, fake } = setup({ 'GET /users/paging': { total: 2, items: [] }, 'POST /users': (r: { body: unknown }) => r.body });
    await expect(api.get('/users/paging', { params: { pageIndex: 1 } })).resolves.toEqual({ total: 2, items: [] });
    await expect(api.post('/users', { name: 'x' })).resolves.toEqual({ name: 'x' });
    expect(fake.calls.map((c) => c.headers['X-Auth-Token'])).toEqual(['tok-9', 'tok-9']);
    expect(fake.calls[0]?.query).toEqual({ pageIndex: 1 });
  });

  it('Network Error → toast 网络异常, rejects flagged as notified (never pending)', async () => {
    const { api, notes, redirects } = setup({ 'GET /x': reply.networkError() });
    const error = await rejection(api.get('/x'));
    expect(error).toMatchObject({ kind: 'network', notified: true, message: '网络异常' });
    expect(notes).toEqual([{ intent: 'error', message: '网络异常' }]);
    expect(redirects).toEqual([]);
  });

  it('a real transport failure (nothing listening, no adapter) is the same Network Error row', async () => {
    const { api, notes } = setup({}, { adapter: false });
    const error = await rejection(api.get('http://127.0.0.1:9/unreachable'));
    expect(error.kind).toBe('network');
    expect(notes[0]?.message).toBe('网络异常');
  });

  it('a call with no answer within its timeout → toast 请求超时 and a final network ApiError (never pending)', async () => {
    const { api, notes } = setup(
      { 'POST /user-groups': () => new Promise(() => undefined) },
      { timeout: 30 },
    );
    const started = api.post('/user-groups', { name: 'x' });
    const error = await rejection(started);
    expect(error).toMatchObject({ kind: 'network', notified: true, message: '请求超时，请稍后重试', timedOut: true });
    // A query does not wait that long again three times: its error state offers a retry.
    expect(error.isFinal).toBe(true);
    expect(notes).toEqual([{ intent: 'error', message: '请求超时，请稍后重试' }]);
  });

  it('no timeout for an upload carrying a file, nor for a call that asks for none', async () => {
    const slow = (data: unknown) => () => new Promise((resolve) => setTimeout(() => resolve(data), 80));
    const { api } = setup({ 'POST /assets/import': slow('imported'), 'GET /sessions/s1/recording': slow('cast') }, { timeout: 20 });
    const form = new FormData();
    form.append('file', new Blob(['a,b\n']), 'a.csv');
    await expect(api.post('/assets/import', form)).resolves.toBe('imported');
    await expect(api.get('/sessions/s1/recording', { timeout: 0 })).resolves.toBe('cast');
    // A form without a file (the file manager's ls) keeps the timeout.
    const { api: other } = setup({ 'POST /sessions/s1/ls': slow([]) }, { timeout: 20 });
    const fields = new FormData();
    fields.set('dir', '/');
    await expect(rejection(other.post('/sessions/s1/ls', fields))).resolves.toMatchObject({ timedOut: true });
  });

  it('HTTP 401 → #/login, no toast', async () => {
    const { api, notes, redirects, events } = setup({ 'GET /x': reply.http(401, { code: 401, message: 'expired' }) });
    const error = await rejection(api.get('/x'));
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401, notified: true });
    expect(redirects).toEqual(['/login']);
    expect(notes).toEqual([]);
    expect(events).toContain('session:expired');
  });

  it('other HTTP errors → toast the response message', async () => {
    const { api, notes, redirects } = setup({ 'DELETE /x': reply.http(500, { code: -1, message: '服务器内部错误' }) });
    const error = await rejection(api.delete('/x'));
    expect(error).toMatchObject({ kind: 'http', status: 500, message: '服务器内部错误', notified: true });
    expect(notes).toEqual([{ intent: 'error', message: '服务器内部错误' }]);
    expect(redirects).toEqual([]);
  });

  it('body code 401 → login', async () => {
    const { api, redirects, notes } = setup({ 'GET /x': reply.envelope(401, '登录失效') });
    expect(await rejection(api.get('/x'))).toMatchObject({ kind: 'unauthorized', code: 401 });
    expect(redirects).toEqual(['/login']);
    expect(notes).toEqual([]);
  });

  it('body code 403 → #/permission-denied', async () => {
    const { api, redirects, notes } = setup({ 'GET /x': reply.envelope(403, 'forbidden') });
    expect(await rejection(api.get('/x'))).toMatchObject({ kind: 'forbidden', code: 403 });
    expect(redirects).toEqual(['/permission-denied']);
    expect(notes).toEqual([]);
  });

  it('body code 100 passes as success (envelope available)', async () => {
    const { api, notes } = setup({ 'POST /login': reply.envelope(100, 'totp required', { need: 'totp' }) });
    await expect(api.request('POST', '/login', { u: 1 })).resolves.toEqual({ code: 100, message: 'totp required', data: { need: 'totp' } });
    await expect(api.post('/login')).resolves.toEqual({ need: 'totp' });
    expect(notes).toEqual([]);
  });

  it('any other body code → error toast with the message and a typed rejection', async () => {
    const { api, notes } = setup({ 'PUT /users/:id': reply.envelope(-1, '用户名已存在') });
    const error = await rejection(api.put('/users/7', { name: 'dup' }));
    expect(error).toMatchObject({ kind: 'business', code: -1, message: '用户名已存在', notified: true, isFinal: true });
    expect(notes).toEqual([{ intent: 'error', message: '用户名已存在' }]);
  });

  it('protocol errors as the server sends them (HTTP 200, body code 400/404/405/413/415) and as HTTP 4xx both toast and reject', async () => {
    const cases: [number, string][] = [
      [400, 'name: required'],
      [404, 'Not Found'],
      [405, 'Method Not Allowed'],
      [413, 'body: larger than the 1 MB limit'],
      [415, 'Unsupported Media Type'],
    ];
    for (const [code, message] of cases) {
      // The server's form (contract §1.2): the envelope at HTTP 200.
      const asBody = setup({ 'POST /x': reply.envelope(code, message) });
      expect(await rejection(asBody.api.post('/x', {})), `body ${code}`).toMatchObject({ kind: 'business', code, status: 200, message, notified: true, isFinal: true });
      expect(asBody.notes).toEqual([{ intent: 'error', message }]);
      expect(asBody.redirects).toEqual([]);
      // Another server's form: the same envelope with the HTTP status.
      const asHttp = setup({ 'POST /x': reply.http(code, { code, message }) });
      expect(await rejection(asHttp.api.post('/x', {})), `HTTP ${code}`).toMatchObject({ kind: 'http', code, status: code, message, notified: true, isFinal: true });
      expect(asHttp.notes).toEqual([{ intent: 'error', message }]);
      expect(asHttp.redirects).toEqual([]);
    }
  });

  it('silent requests reject without a toast', async () => {
    const { api, notes } = setup({ 'GET /x': reply.envelope(-1, 'nope') });
    expect(await rejection(api.get('/x', { silent: true }))).toMatchObject({ notified: false });
    expect(notes).toEqual([]);
  });

  it('websocket URL follows the page (http→ws, https→wss); base URL is relative', () => {
    const { api } = setup({});
    expect(api.baseUrl).toBe('');
    expect(api.wsUrl).toBe('ws://console.example:8088');
    expect(wsUrlFor({ protocol: 'https:', host: 'h:1' })).toBe('wss://h:1');
  });
});

describe('account calls (spec §7)', () => {
  it('return data, or {} / false on failure', async () => {
    const { api, fake } = setup({
      'GET /account/info': { type: 'admin', nickname: 'A', menus: [] },
      'POST /account/logout': null,
      'GET /account/access-token': reply.envelope(-1, 'none'),
      'POST /account/access-token': { token: 'pat' },
      'DELETE /account/access-token': reply.envelope(-1, 'fail'),
      'POST /account/change-password': null,
      'GET /account/reload-totp': { qr: 'x' },
      'POST /account/confirm-totp': reply.envelope(-1, 'bad code'),
      'POST /account/reset-totp': null,
      'GET /branding': reply.http(404, { message: 'not found' }),
      'GET /account/assets': (r: { query: unknown }) => ({ query: r.query }),
    });
    const account = createAccountApi(api);
    await expect(account.info()).resolves.toEqual({ type: 'admin', nickname: 'A', menus: [] });
    await expect(account.logout()).resolves.toBe(true);
    await expect(account.getAccessToken()).resolves.toEqual({});
    await expect(account.createAccessToken()).resolves.toEqual({ token: 'pat' });
    await expect(account.deleteAccessToken()).resolves.toBe(false);
    await expect(account.changePassword({ oldPassword: 'a', newPassword: 'b' })).resolves.toBe(true);
    expect(fake.callsTo('POST /account/change-password')[0]?.body).toEqual({ oldPassword: 'a', newPassword: 'b' });
    await expect(account.reloadTotp()).resolves.toEqual({ qr: 'x' });
    await expect(account.confirmTotp({ totp: '1' })).resolves.toBe(false);
    await expect(account.resetTotp()).resolves.toBe(true);
    await expect(account.branding()).resolves.toEqual({});
    await expect(account.assets({ pageIndex: 1, pageSize: 10 })).resolves.toEqual({ query: { pageIndex: 1, pageSize: 10 } });
  });
});
