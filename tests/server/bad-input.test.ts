import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RouteDef } from '../../server/http/routes.ts';
import { SUPER_ADMIN_ID } from '../../server/modules/menus/effective.ts';
import { type CallResult, startHarness } from './harness.ts';
import { withProbe } from './probe.ts';

const urlOf = (r: RouteDef) => r.path.replace(/:\w+/g, 'sample');
const TEN_MB = 'x'.repeat(10 * 1024 * 1024);

/** A client error: a JSON envelope whose code is the 4xx HTTP status (or a business -1), never a 500. */
function expectClientError(res: CallResult, label: string, code?: number) {
  expect(res.status, label).not.toBe(500);
  expect(res.body, label).toBeTypeOf('object');
  expect(res.body.code, label).toBeTypeOf('number');
  expect(typeof res.body.message, label).toBe('string');
  if (code !== undefined) {
    expect(res.body.code, `${label}: ${res.body.message}`).toBe(code);
    expect(res.status, label).toBe(code);
  } else {
    expect(res.body.code, label).not.toBe(1);
  }
}

describe('bad input over every registered route', () => {
  it('answers envelopes with 4xx codes and never HTTP 500', async () => {
    const h = await startHarness(withProbe);
    const token = await h.accessToken(SUPER_ADMIN_ID);
    const withBody = h.app.routeRegistry.filter((r) => r.method !== 'GET');

    for (const r of h.app.routeRegistry) {
      const url = urlOf(r);
      const label = `${r.method} ${r.path}`;
      const shape = r.body instanceof z.ZodObject ? (r.body.shape as Record<string, z.ZodType>) : undefined;
      if (r.body && shape) {
        const required = Object.keys(shape).filter((k) => !shape[k]!.safeParse(undefined).success);
        if (required.length) {
          expectClientError(await h.call(r.method, url, { token, body: {} }), `${label} {}`, 400);
          expect((await h.call(r.method, url, { token, body: {} })).body.message).toMatch(new RegExp(`^(${required.join('|')}): `));
        }
        expectClientError(await h.call(r.method, url, { token, body: Object.fromEntries(Object.keys(shape).map((k) => [k, { nested: [1] }])) }), `${label} wrong types`, 400);
        expectClientError(await h.call(r.method, url, { token, body: [] }), `${label} []`, 400);
        expectClientError(await h.call(r.method, url, { token, body: 'text' }), `${label} "text"`, 400);
        expectClientError(await h.call(r.method, url, { token, body: null }), `${label} null`, 400);
      }
      if (r.query instanceof z.ZodObject) {
        const keys = Object.keys(r.query.shape);
        expectClientError(await h.call(r.method, url, { token, query: Object.fromEntries(keys.map((k) => [k, 'x'.repeat(100_000)])) }), `${label} long query`, 400);
      }
      if (r.params) {
        expectClientError(await h.call(r.method, r.path.replace(/:\w+/g, 'p'.repeat(90)), { token }), `${label} long param`);
      }
      if (withBody.includes(r)) {
        expectClientError(await h.call(r.method, url, { token, raw: '{"username": "a", ' }), `${label} broken JSON`, 400);
        expectClientError(await h.call(r.method, url, { token, raw: `{"username":"${TEN_MB}"}` }), `${label} 10 MB`, 413);
        expectClientError(await h.call(r.method, url, { token, raw: 'hello', contentType: 'text/plain' }), `${label} text/plain`, 415);
        expectClientError(await h.call(r.method, url, { token, raw: '{"__proto__": {"x": 1}}' }), `${label} proto`, 400);
      }
    }
  });

  it('answers 404 for unknown routes and 405 for a wrong method on every known path', async () => {
    const h = await startHarness(withProbe);
    for (const url of ['/nope', '/account', '/account/info/x', '/no-such/paging', '/api/login', '/%E0%A4%A']) {
      const res = await h.call('GET', url);
      expectClientError(res, url, res.status === 400 ? 400 : 404);
    }
    const paths = new Map<string, Set<string>>();
    for (const r of h.app.routeRegistry) paths.set(r.path, (paths.get(r.path) ?? new Set()).add(r.method));
    for (const [path, methods] of paths) {
      for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((x) => !methods.has(x))) {
        const res = await h.call(m, path.replace(/:\w+/g, 'x'));
        expect(res.body, `${m} ${path}`).toEqual({ code: 405, message: 'Method Not Allowed' });
        expect(res.status).toBe(405);
      }
    }
  });

  it('login: wrong types and sizes are 400/413, not 500', async () => {
    const h = await startHarness();
    const cases: [unknown, number][] = [
      [{ username: 1, password: 'x' }, 400],
      [{ username: 'admin', password: ['x'] }, 400],
      [{ username: 'admin', password: 'x', remember: 'yes' }, 400],
      [{ username: 'admin', password: 'x', totp: 123456 }, 400],
      [{ username: 'a'.repeat(300), password: 'x' }, 400],
    ];
    for (const [body, code] of cases) expectClientError(await h.call('POST', '/login', { body }), JSON.stringify(body).slice(0, 60), code);
    const big = await h.call('POST', '/login', { body: { username: 'admin', password: 'p'.repeat(900_000) } });
    expect(big.body).toEqual({ code: -1, message: '您输入的密码过长' });
    expectClientError(await h.call('POST', '/login', { body: { username: 'admin', password: TEN_MB } }), '10 MB password', 413);
  });

  it('a form-encoded body is parsed like JSON fields', async () => {
    const h = await startHarness();
    const res = await h.call('POST', '/login', { raw: 'username=admin&password=nope', contentType: 'application/x-www-form-urlencoded' });
    expect(res.body).toMatchObject({ code: -1, message: '您输入的账号或密码不正确' });
  });

  it('an empty JSON body counts as no body (POST /account/logout from some clients)', async () => {
    const h = await startHarness();
    const token = await h.accessToken(SUPER_ADMIN_ID);
    expect((await h.call('POST', '/account/logout', { token, raw: '' })).body.code).toBe(1);
  });
});
