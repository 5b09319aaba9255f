import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sessionsHarness } from './sessions/helpers.ts';

/*
 * Issue 28 rule 5: one multipart request cannot exhaust the server. The token, the gate and the session's owner are
 * checked before a byte of the body is read, and a body's text fields are bounded together (64 KiB unless the route
 * says otherwise), not each: 99 fields of 1 MiB to /sessions/x/edit took RSS 364 → 589 MB, /login buffered 6 MB.
 */

const B = 'jgHostileBoundary';
const MP = `multipart/form-data; boundary=${B}`;
const field = (name: string, value: string) => `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const form = (fields: [string, string][]) => `${fields.map(([k, v]) => field(k, v)).join('')}--${B}--\r\n`;

/**
 * Sends the head of a multipart request and a first piece of its body, never the rest, over real HTTP; resolves with
 * the answer if one comes while the body is still open (null after `ms`: the server waits for the body).
 */
function answerBeforeBody(port: number, url: string, token: string, ms = 8000): Promise<{ status: number; body: unknown } | null> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: url, headers: { 'content-type': MP, 'content-length': 200 * 1024 * 1024, 'x-auth-token': token } }, (res) => {
      let out = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        out += c;
      });
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(out) });
      });
    });
    req.on('error', (err) => {
      if (!settled) reject(err);
    });
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      req.destroy();
      resolve(null);
    }, ms);
    req.write(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\n${'x'.repeat(64 * 1024)}`);
  });
}

describe('multipart bodies', () => {
  it("someone else's session is refused before the body is read (upload and edit)", async () => {
    const r = await sessionsHarness();
    const { h } = r;
    const alice = await h.createUser({ username: 'alice' });
    const bob = await h.createUser({ username: 'bob' });
    const session = await r.seedSession({ creator: alice, status: 'connected', disconnectedTime: null });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = h.app.server.address() as AddressInfo;
    const bobToken = await h.accessToken(bob);
    for (const op of ['upload', 'edit']) {
      expect(await answerBeforeBody(port, `/sessions/${session}/${op}`, bobToken), op).toEqual({ status: 200, body: { code: -1, message: '获取会话失败' } });
      expect(await answerBeforeBody(port, `/sessions/no-such-session/${op}`, bobToken), op).toEqual({ status: 200, body: { code: -1, message: '获取会话失败' } });
    }
    // No token: the 401 before the body, as before.
    expect(await answerBeforeBody(port, `/sessions/${session}/edit`, 'nope')).toMatchObject({ body: { code: 401 } });
  });

  it('text fields are bounded together: /login at 64 KiB, the editor at its file size, whatever the number of fields', async () => {
    const r = await sessionsHarness();
    const { h } = r;
    const alice = await h.createUser({ username: 'alice' });
    const session = await r.seedSession({ creator: alice, status: 'connected', disconnectedTime: null });
    const token = await h.accessToken(alice);
    const kib = (n: number) => 'x'.repeat(n * 1024);
    // /login: two fields of 40 KiB are over 64 KiB together (each was allowed 64 KiB, 100 of them).
    const login = await h.call('POST', '/login', { raw: form([['username', kib(40)], ['password', kib(40)]]), contentType: MP });
    expect(login.body).toEqual({ code: 413, message: 'body: the form fields are larger than 64 KiB together' });
    // Small forms still pass through (a wrong password is the login's own answer).
    expect((await h.call('POST', '/login', { raw: form([['username', 'alice'], ['password', 'wrong-password']]), contentType: MP })).body.code).not.toBe(413);
    // The editor: one file of up to 1 MiB, not 99 of them.
    const many = form(Array.from({ length: 3 }, (_, i) => [`f${i}`, kib(1000)] as [string, string]));
    expect((await h.call('POST', `/sessions/${session}/edit`, { token, raw: many, contentType: MP })).body).toEqual({ code: 413, message: 'body: the form fields are larger than 1024 KiB together' });
    // One file of 1000 KiB and its path are within the bound (the session is not running here: the answer after the body).
    const one = form([['file', '/tmp/a.txt'], ['fileContent', kib(1000)]]);
    expect((await h.call('POST', `/sessions/${session}/edit`, { token, raw: one, contentType: MP })).body).toEqual({ code: -1, message: '会话已离线' });
  });
});
