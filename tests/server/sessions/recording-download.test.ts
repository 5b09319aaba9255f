import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseRange } from '../../../server/modules/sessions/recording-download.ts';
import { adminWith } from '../resources/helpers.ts';
import { sessionsHarness } from './helpers.ts';

/** An asciicast v2 file of a few KB: a header and output events. */
function cast(): string {
  const lines = [JSON.stringify({ version: 2, width: 80, height: 24, timestamp: 1_700_000_000, env: { TERM: 'xterm-256color', SHELL: '/bin/bash' } })];
  for (let i = 0; i < 200; i++) lines.push(JSON.stringify([i / 10, 'o', `line ${i} 你好\r\n`]));
  return `${lines.join('\n')}\n`;
}

describe('parseRange', () => {
  it('reads one byte range and clamps it; ignores what a server may ignore', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-1', 100)).toBeNull();
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
    expect(parseRange('bytes=abc', 100)).toBeNull();
  });
});

describe('GET /sessions/:id/recording', () => {
  it('streams the asciicast with its type, marks the session reviewed, and answers byte ranges', async () => {
    const r = await sessionsHarness();
    const { h, api } = r;
    const id = await r.seedSession();
    const body = Buffer.from(cast());
    r.writeRecording(id, body);

    const whole = await api.call('GET', `/sessions/${id}/recording`);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('application/x-asciicast');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(Number(whole.headers['content-length'])).toBe(body.length);
    expect(Buffer.from(whole.text).equals(body)).toBe(true);
    expect((await h.db.selectFrom('sessions').select('reviewed').where('id', '=', id).executeTakeFirstOrThrow()).reviewed).toBe(1);

    const part = await api.call('GET', `/sessions/${id}/recording`, { headers: { range: 'bytes=100-1099' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${body.length}`);
    expect(Number(part.headers['content-length'])).toBe(1000);
    const raw = await h.app.inject({ method: 'GET', url: `/sessions/${id}/recording`, headers: { 'x-auth-token': r.root, range: 'bytes=100-1099' } });
    expect(raw.rawPayload.equals(body.subarray(100, 1100))).toBe(true);

    const tail = await h.app.inject({ method: 'GET', url: `/sessions/${id}/recording`, headers: { 'x-auth-token': r.root, range: 'bytes=-17' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(body.subarray(body.length - 17))).toBe(true);

    const beyond = await api.call('GET', `/sessions/${id}/recording`, { headers: { range: `bytes=${body.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${body.length}`);
  });

  it('takes the token in the query (the player cannot set headers); refuses others and missing recordings', async () => {
    const r = await sessionsHarness();
    const { h } = r;
    const id = await r.seedSession();
    r.writeRecording(id, cast());
    const player = await adminWith(h, ['offline-session-playback'], 'player');
    const viaQuery = await h.call('GET', `/sessions/${id}/recording?X-Auth-Token=${player.token}`);
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.text.startsWith('{"version":2')).toBe(true);

    const lister = await adminWith(h, ['offline-session', 'offline-session-del'], 'lister');
    expect((await h.call('GET', `/sessions/${id}/recording?X-Auth-Token=${lister.token}`)).body).toEqual({ code: 403, message: 'permission denied' });

    const none = await r.seedSession();
    expect((await r.api.call('GET', `/sessions/${none}/recording`)).body).toEqual({ code: -1, message: '该会话没有录像' });
    expect((await r.api.call('GET', '/sessions/ghost/recording')).body).toMatchObject({ code: -1, message: '会话不存在：ghost' });
  });

  it('streams a large recording over real HTTP without reading it whole', async () => {
    const r = await sessionsHarness();
    const id = await r.seedSession();
    const big = Buffer.alloc(8 * 1024 * 1024, 'a');
    r.writeRecording(id, big);
    await r.h.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = r.h.app.server.address() as AddressInfo;
    const got = await new Promise<{ status: number; bytes: number; range: string | undefined }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: `/sessions/${id}/recording?X-Auth-Token=${r.root}`, headers: { range: 'bytes=1048576-' } }, (res) => {
          let bytes = 0;
          res.on('data', (c: Buffer) => {
            bytes += c.length;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, range: res.headers['content-range'] }));
        })
        .on('error', reject);
    });
    expect(got).toEqual({ status: 206, bytes: big.length - 1048576, range: `bytes 1048576-${big.length - 1}/${big.length}` });
  });
});
