import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RouteDef } from '../../server/http/routes.ts';
import { SUPER_ADMIN_ID } from '../../server/permissions/effective.ts';
import { ADMIN_PASSWORD, type CallResult, startHarness } from './harness.ts';
import { withProbe } from './probe.ts';

const urlOf = (r: RouteDef) => r.path.replace(/:\w+/g, 'sample');
const TEN_MB = 'x'.repeat(10 * 1024 * 1024);

const B = 'jgBoundary';
const MP = `multipart/form-data; boundary=${B}`;
const field = (name: string, value: string) => `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
/** Broken multipart bodies every route with a body must answer as a client error (a truncated one was a 500). */
const MULTIPART_CASES: [string, string, string, number][] = [
  ['truncated in a value', `--${B}\r\nContent-Disposition: form-data; name="username"\r\n\r\nadm`, MP, 400],
  ['truncated in the headers', `--${B}\r\nContent-Disposition: form-da`, MP, 400],
  ['no closing delimiter', field('username', 'a'), MP, 400],
  ['no boundary parameter', field('username', 'a'), 'multipart/form-data', 400],
  ['garbage', 'this is not multipart at all', MP, 400],
  ['a file part', `--${B}\r\nContent-Disposition: form-data; name="f"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\na,b\r\n--${B}--\r\n`, MP, 400],
  ['a 10 MB field', `${field('username', TEN_MB)}--${B}--\r\n`, MP, 413],
  ['too many parts', `${field('x', 'y').repeat(101)}--${B}--\r\n`, MP, 413],
];

/** A client error: a JSON envelope, HTTP 200 (contract §1.2), whose code is the 4xx (or a business -1), never a 500. */
function expectClientError(res: CallResult, label: string, code?: number) {
  expect(res.status, label).toBe(200);
  expect(res.body, label).toBeTypeOf('object');
  expect(res.body.code, label).toBeTypeOf('number');
  expect(typeof res.body.message, label).toBe('string');
  if (code !== undefined) {
    expect(res.body.code, `${label}: ${res.body.message}`).toBe(code);
  } else {
    expect(res.body.code, label).not.toBe(1);
  }
}

describe('bad input over every registered route', () => {
  it('answers envelopes with 4xx codes and never HTTP 500', async () => {
    const h = await startHarness(withProbe);
    const pat = await h.accessToken(SUPER_ADMIN_ID);
    const session = await h.login('admin', ADMIN_PASSWORD); // for the routes a personal access token may not call
    const withBody = h.app.routeRegistry.filter((r) => r.method !== 'GET');

    for (const r of h.app.routeRegistry) {
      const token = r.loginOnly ? session : pat;
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
        for (const [name, raw, contentType, code] of MULTIPART_CASES) {
          if (name === 'a file part' && r.upload) continue; // taken there (tested below)
          // A route with `beforeBody` refuses a session not the caller's before reading the body (issue 28): its -1 first.
          expectClientError(await h.call(r.method, url, { token, raw, contentType }), `${label} multipart ${name}`, r.beforeBody ? undefined : code);
        }
      }
    }
  });

  it('answers 404 for unknown routes and 405 for a wrong method on every known path', async () => {
    const h = await startHarness(withProbe);
    for (const url of ['/nope', '/account', '/account/info/x', '/no-such/paging', '/api/login', '/%E0%A4%A']) {
      const res = await h.call('GET', url);
      expectClientError(res, url, res.body.code === 400 ? 400 : 404);
    }
    const paths = new Map<string, Set<string>>();
    for (const r of h.app.routeRegistry) paths.set(r.path, (paths.get(r.path) ?? new Set()).add(r.method));
    for (const [path, methods] of paths) {
      for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((x) => !methods.has(x))) {
        const res = await h.call(m, path.replace(/:\w+/g, 'x'));
        expect(res.body, `${m} ${path}`).toEqual({ code: 405, message: 'Method Not Allowed' });
        expect(res.status).toBe(200);
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

describe('multipart uploads (readMultipart through a route that declares `upload`)', () => {
  const file = (name: string, filename: string, text: string) =>
    `--${B}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n${text}\r\n`;

  it('hands the files to the route, with the text fields as the body, within its limits', async () => {
    const h = await startHarness(withProbe);
    const token = await h.accessToken(SUPER_ADMIN_ID);
    const send = (raw: string) => h.call('POST', '/probe/upload', { token, raw, contentType: MP });
    const ok = await send(`${field('note', 'hi')}${file('csv', 'a.csv', 'a,b\n1,2')}--${B}--\r\n`);
    expect(ok.body).toEqual({ code: 1, message: 'success', data: { note: 'hi', files: [{ field: 'csv', filename: 'a.csv', mimetype: 'text/csv', text: 'a,b\n1,2' }] } });
    expect((await send(`${file('csv', 'a.csv', 'x'.repeat(2000))}--${B}--\r\n`)).body.code).toBe(413);
    expect((await send(`${file('a', 'a.csv', 'x')}${file('b', 'b.csv', 'x')}${file('c', 'c.csv', 'x')}--${B}--\r\n`)).body.code).toBe(413);
    expect((await send(`${file('csv', 'a.csv', 'a,b')}`)).body).toEqual({ code: 400, message: 'body: malformed multipart/form-data' });
    expect((await send(`${field('note', 'x'.repeat(11))}--${B}--\r\n`)).body.code).toBe(400);
  });
});

describe('streamed files (a route that declares `fileStream`)', () => {
  const file = (name: string, filename: string, text: string) =>
    `--${B}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n${text}\r\n`;

  it('hands the file over as a stream after the text fields before it; drops an untaken file; reports the size limit', async () => {
    const h = await startHarness(withProbe);
    const token = await h.accessToken(SUPER_ADMIN_ID);
    const send = (raw: string, query = '') => h.call('POST', `/probe/stream${query}`, { token, raw, contentType: MP });
    expect((await send(`${field('note', 'hi')}${file('file', 'a.txt', 'hello')}${field('after', 'x')}--${B}--\r\n`)).body).toEqual({
      code: 1,
      message: 'success',
      data: { note: 'hi', file: { filename: 'a.txt', text: 'hello', truncated: false } },
    });
    expect((await send(`${field('note', 'hi')}--${B}--\r\n`)).body.data).toEqual({ note: 'hi', file: null });
    // Over maxFileBytes: the stream ends early, truncated, and finish() answers the limit.
    expect((await send(`${file('file', 'a.txt', 'x'.repeat(3000))}--${B}--\r\n`)).body.code).toBe(413);
    expect((await send(`${file('file', 'a.txt', 'x'.repeat(3000))}--${B}--\r\n`, '?refuse=1')).body).toEqual({ code: -1, message: 'refused' });
    expect((await send(`${file('other', 'a.txt', 'x')}--${B}--\r\n`)).body).toEqual({ code: 400, message: 'body: the file goes in the form field "file"' });
    expect((await send(`${field('note', 'x'.repeat(11))}${file('file', 'a.txt', 'x')}--${B}--\r\n`)).body.code).toBe(400);
    // A body cut inside the file: the stream fails, answered as any malformed body.
    expect((await send(`${file('file', 'a.txt', 'abc')}`)).body).toEqual({ code: 400, message: 'body: malformed multipart/form-data' });
  });
});
