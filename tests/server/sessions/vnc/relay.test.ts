import fs from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CLOSE } from '../../../../server/modules/sessions/live.ts';
import { recordingFolder } from '../../../../server/modules/sessions/shared.ts';
import { MSG_BROWSER_STREAM } from '../../../../server/modules/sessions/vnc/rfb-messages.ts';
import { MSG_VNC_AUTH_FAILED, VNC_RECORDING } from '../../../../server/modules/sessions/vnc/relay.ts';
import { eventually, sessionsHarness } from '../helpers.ts';
import { Bytes, type FakeServer, fakeServer, u32 } from './fake.ts';
import { startXvnc, type TestXvnc, XVNC_DESKTOP, xvncUnavailable } from './xvnc.ts';

/*
 * The VNC relay end to end: the real app, the browser's WebSocket speaking RFB as noVNC does (written here again,
 * not the server's parsers), a real Xvnc (TigerVNC) or a scripted fake RFB target where the test must see what the
 * target receives (the clipboard, the rewritten encodings, a watcher's keys).
 */

const PASSWORD = 'Vnc-Secret-7';

/** The browser's side: text frames (control) and binary bytes (RFB). */
class VncClient {
  frames: string[] = [];
  closedWith: string | undefined;
  readonly bytes = new Bytes();
  readonly closed: Promise<void>;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) return this.bytes.push(Buffer.from(data));
      const text = data.toString();
      this.frames.push(text);
      if (text[0] === '0') this.closedWith = text.slice(1);
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', () => {
        this.bytes.end();
        resolve();
      }),
    );
  }
  static open(url: string): Promise<VncClient> {
    const ws = new WebSocket(url);
    const client = new VncClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }
  connected(): Promise<void> {
    return eventually('the connected frame', () => this.frames.includes('1') || this.closedWith !== undefined);
  }
  send(bytes: Buffer): void {
    this.ws.send(bytes, { binary: true });
  }
  /** RFB 3.8 as a client offered None only: returns the ServerInit. */
  async handshake(): Promise<{ width: number; height: number; name: string; raw: Buffer }> {
    expect((await this.bytes.read(12)).toString('latin1')).toBe('RFB 003.008\n');
    this.send(Buffer.from('RFB 003.008\n', 'latin1'));
    const count = (await this.bytes.read(1))[0] as number;
    expect([...(await this.bytes.read(count))]).toEqual([1]);
    this.send(Buffer.of(1));
    expect((await this.bytes.read(4)).readUInt32BE(0)).toBe(0);
    this.send(Buffer.of(0)); // not shared: the bastion makes it shared
    const head = await this.bytes.read(24);
    const name = await this.bytes.read(head.readUInt32BE(20));
    return { width: head.readUInt16BE(0), height: head.readUInt16BE(2), name: name.toString(), raw: Buffer.concat([head, name]) };
  }
}

const PIXEL_FORMAT = Buffer.from([32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0, 0, 0, 0]);
const setPixelFormat = () => Buffer.concat([Buffer.of(0, 0, 0, 0), PIXEL_FORMAT]);
const setEncodings = (list: number[]) => {
  const b = Buffer.alloc(4 + 4 * list.length);
  b.writeUInt8(2, 0);
  b.writeUInt16BE(list.length, 2);
  list.forEach((e, i) => {
    b.writeInt32BE(e, 4 + 4 * i);
  });
  return b;
};
const updateRequest = (incremental: number, w: number, h: number) => {
  const b = Buffer.alloc(10);
  b.writeUInt8(3, 0);
  b.writeUInt8(incremental, 1);
  b.writeUInt16BE(w, 6);
  b.writeUInt16BE(h, 8);
  return b;
};
const keyEvent = (key: number) => Buffer.concat([Buffer.of(4, 1, 0, 0), u32(key)]);
const cutText = (type: number, s: string) => Buffer.concat([Buffer.of(type, 0, 0, 0), u32(Buffer.byteLength(s)), Buffer.from(s)]);

/** Reads one FramebufferUpdate of Raw rectangles (32 bpp); returns the encodings seen and the pixel bytes. */
async function readRawUpdate(bytes: Bytes): Promise<{ encodings: number[]; pixels: number }> {
  for (;;) {
    const type = (await bytes.read(1))[0];
    if (type === 2) continue; // Bell
    expect(type).toBe(0);
    const count = (await bytes.read(3)).readUInt16BE(1);
    const encodings: number[] = [];
    let pixels = 0;
    for (let i = 0; i < count; i++) {
      const r = await bytes.read(12);
      const w = r.readUInt16BE(4);
      const h = r.readUInt16BE(6);
      const e = r.readInt32BE(8);
      encodings.push(e);
      expect(e).toBe(0);
      await bytes.read(w * h * 4);
      pixels += w * h;
    }
    return { encodings, pixels };
  }
}

interface Record {
  type: number;
  ms: number;
  body: Buffer;
}

/** The contract's reader: the header line and the records (a truncated last one ignored). */
function readRecording(file: string): { header: { [k: string]: unknown }; records: Record[] } {
  const all = fs.readFileSync(file);
  const nl = all.indexOf(0x0a);
  const header = JSON.parse(all.subarray(0, nl).toString('utf8')) as { [k: string]: unknown };
  const records: Record[] = [];
  let at = nl + 1;
  while (at + 9 <= all.length) {
    const length = all.readUInt32BE(at + 5);
    if (at + 9 + length > all.length) break;
    records.push({ type: all[at] as number, ms: all.readUInt32BE(at + 1), body: all.subarray(at + 9, at + 9 + length) });
    at += 9 + length;
  }
  return { header, records };
}

/** Each type-0 record must be whole server messages (Raw updates, Bell): parsed to its exact end. */
function wholeMessages(body: Buffer): boolean {
  let at = 0;
  while (at < body.length) {
    const type = body[at];
    if (type === 2) {
      at += 1;
      continue;
    }
    if (type === 3) {
      at += 8 + body.readUInt32BE(at + 4);
      continue;
    }
    if (type !== 0) return false;
    const count = body.readUInt16BE(at + 2);
    at += 4;
    for (let i = 0; i < count; i++) {
      const w = body.readUInt16BE(at + 4);
      const h = body.readUInt16BE(at + 6);
      at += 12 + w * h * 4;
    }
  }
  return at === body.length;
}

async function world() {
  const r = await sessionsHarness();
  const base = (await r.h.listen()).replace(/^http/, 'ws');
  r.secret(PASSWORD);
  const asset = async (name: string, host: string, port: number, password = PASSWORD) =>
    (await r.api.ok<{ id: string }>('POST', '/assets', { body: { name, protocol: 'vnc', ip: host, port, accountType: 'custom', username: '', password, tags: '', description: '' } })).id;
  const open = async (assetId: string, token = r.root) => (await r.as(token).ok<{ id: string }>('POST', `/sessions?assetId=${assetId}&mode=guacd`)).id;
  const attach = (id: string, token = r.root) => VncClient.open(`${base}/sessions/${id}/vnc?X-Auth-Token=${encodeURIComponent(token)}`);
  const monitor = (id: string, token = r.root) => VncClient.open(`${base}/sessions/${id}/vnc-monitor?X-Auth-Token=${encodeURIComponent(token)}`);
  const row = (id: string) => r.h.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { ...r, asset, open, attach, monitor, row };
}

describe.skipIf(xvncUnavailable())('the VNC relay (real Xvnc)', () => {
  let xvnc: TestXvnc;
  beforeAll(async () => {
    xvnc = await startXvnc({ password: PASSWORD });
  });
  afterAll(() => xvnc?.stop());

  it('logs in for the browser (None), relays pixels with only the encodings it parses, is watched, recorded with a keyframe, ended by an admin; the password shows nowhere', async () => {
    const w = await world();
    const assetId = await w.asset('desk', xvnc.host, xvnc.port);
    const id = await w.open(assetId);
    const user = await w.attach(id);
    await user.connected();
    expect(user.closedWith).toBeUndefined();
    const init = await user.handshake();
    expect(init).toMatchObject({ width: 1024, height: 768, name: XVNC_DESKTOP });
    expect(await w.row(id)).toMatchObject({ status: 'connecting', protocol: 'vnc', username: '', width: 1024, height: 768 });
    await w.api.ok('POST', `/sessions/${id}/connect`);

    user.send(setPixelFormat());
    // Tight (7) and ZRLE (16) first: Xvnc would use them had they reached it.
    user.send(setEncodings([7, 16, 0]));
    user.send(updateRequest(0, 1024, 768));
    const update = await readRawUpdate(user.bytes);
    expect(update.pixels).toBeGreaterThanOrEqual(1024 * 768);

    // A watcher: its own connection, the screen at once; its keys are dropped (fake target test below).
    const watcher = await w.monitor(id);
    await watcher.connected();
    expect(watcher.closedWith).toBeUndefined();
    expect((await watcher.handshake()).width).toBe(1024);
    watcher.send(setPixelFormat());
    watcher.send(setEncodings([16, 0]));
    watcher.send(updateRequest(0, 1024, 768));
    expect((await readRawUpdate(watcher.bytes)).pixels).toBeGreaterThanOrEqual(1024 * 768);

    // Ping answered.
    user.ws.send('4');
    await eventually('the pong', () => user.frames.includes('4'));

    await w.api.ok('POST', `/sessions/${id}/disconnect`);
    await user.closed;
    await watcher.closed;
    expect(user.closedWith).toBe(CLOSE.forced.message);
    expect(watcher.closedWith).toBe(CLOSE.forced.message);
    expect(await w.row(id)).toMatchObject({ status: 'disconnected', code: CLOSE.forced.code });

    const file = path.join(recordingFolder(w.config, id), VNC_RECORDING);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const { header, records } = readRecording(file);
    expect(header).toMatchObject({ version: 1, kind: 'rfb', width: 1024, height: 768, name: XVNC_DESKTOP, serverInit: init.raw.toString('base64') });
    expect(records.find((r) => r.type === 1)?.body).toEqual(PIXEL_FORMAT);
    const output = records.filter((r) => r.type === 0);
    expect(output.length).toBeGreaterThan(0);
    for (const r of output) expect(wholeMessages(r.body)).toBe(true);
    const key = records.find((r) => r.type === 2);
    expect(key, 'a keyframe').toBeDefined();
    const kb = key?.body as Buffer;
    expect([kb.readUInt16BE(0), kb.readUInt16BE(2)]).toEqual([1024, 768]);
    expect(inflateSync(kb.subarray(4)).length).toBe(1024 * 768 * 4);

    const raw = fs.readFileSync(file);
    expect(raw.includes(Buffer.from(PASSWORD))).toBe(false);
    expect(user.frames.join('\n').includes(PASSWORD) || user.bytes.all.includes(Buffer.from(PASSWORD))).toBe(false);
  });

  it('a wrong password ends the attach with a fixed reason; the row keeps the detail', async () => {
    // A fresh Xvnc: TigerVNC blacklists an address after a few failures.
    const other = await startXvnc({ password: PASSWORD });
    try {
      const w = await world();
      const assetId = await w.asset('wrong', other.host, other.port, 'Not-The-Password');
      const id = await w.open(assetId);
      const user = await w.attach(id);
      await user.closed;
      expect(user.closedWith).toBe(MSG_VNC_AUTH_FAILED);
      expect(user.frames).not.toContain('1');
      const row = await w.row(id);
      expect(row).toMatchObject({ status: 'disconnected', code: 806 });
      expect(row.message.startsWith(MSG_VNC_AUTH_FAILED)).toBe(true);
    } finally {
      await other.stop();
    }
  });
});

/** A scripted RFB target: None, a 64x48 desktop, then a ServerCutText and a Bell on every connection. */
async function fakeTarget(): Promise<FakeServer> {
  return fakeServer(async (socket, received) => {
    socket.write('RFB 003.008\n');
    await received.read(12);
    socket.write(Buffer.of(1, 1));
    await received.read(1);
    socket.write(u32(0));
    const shared = await received.read(1);
    const name = Buffer.from('fake-desk');
    const init = Buffer.alloc(24);
    init.writeUInt16BE(64, 0);
    init.writeUInt16BE(48, 2);
    PIXEL_FORMAT.copy(init, 4);
    init.writeUInt32BE(name.length, 20);
    socket.write(Buffer.concat([init, name]));
    socket.write(Buffer.concat([cutText(3, 'from-target-clipboard'), Buffer.of(2)]));
    expect(shared[0]).toBe(1);
  });
}

describe('the VNC relay (scripted target)', () => {
  let target: FakeServer;
  beforeAll(async () => {
    target = await fakeTarget();
  });
  afterAll(() => target?.close());

  it('copy / paste off: no cut text either way; SetEncodings rewritten; a watcher sends no keys; a grant removed ends both', async () => {
    const w = await world();
    const assetId = await w.asset('fake', '127.0.0.1', target.port);
    const alice = await w.h.createUser({ username: 'alice', type: 'user' });
    const aliceToken = await w.h.accessToken(alice);
    const strategy = (await w.api.ok<{ id: string }>('POST', '/strategies', { body: { name: 'no-clipboard', copy: false, paste: false } })).id;
    await w.api.ok('POST', '/authorised/users', { body: { userIds: [alice], assetId, strategyId: strategy } });
    const grantId = (await w.h.db.selectFrom('authorised').select('id').where('userId', '=', alice).executeTakeFirstOrThrow()).id;

    const before = target.received.length;
    const id = await w.open(assetId, aliceToken);
    const user = await w.attach(id, aliceToken);
    await user.connected();
    expect(user.closedWith).toBeUndefined();
    await user.handshake();
    // The Bell after the cut text arrives; the cut text did not.
    expect((await user.bytes.read(1))[0]).toBe(2);
    user.send(Buffer.concat([setEncodings([7, 16, -260, 5, 0, -239, -313]), cutText(6, 'from-browser-clipboard'), keyEvent(0x61)]));
    const seen = target.received[before] as Bytes;
    await eventually('the key reached the target', () => seen.all.includes(keyEvent(0x61)));
    // What the target got after the handshake (12 + 1 + 1 bytes): the rewritten encodings, then the key.
    expect(seen.all.subarray(14)).toEqual(Buffer.concat([setEncodings([5, 0, -239]), keyEvent(0x61)]));

    const watcher = await w.monitor(id);
    await watcher.connected();
    await watcher.handshake();
    const watched = target.received[before + 1] as Bytes;
    watcher.send(Buffer.concat([keyEvent(0x62), cutText(6, 'watcher-paste'), updateRequest(1, 64, 48)]));
    await eventually('the watcher update request reached the target', () => watched.all.includes(updateRequest(1, 64, 48)));
    expect(watched.all.includes(keyEvent(0x62))).toBe(false);
    expect(watched.all.includes(Buffer.from('watcher-paste'))).toBe(false);
    expect(watcher.bytes.all.includes(Buffer.from('from-target-clipboard'))).toBe(false);

    await w.api.ok('DELETE', `/authorised/${grantId}`);
    await user.closed;
    expect(user.closedWith).toBe(CLOSE.revoked.message);
    await watcher.closed;
    expect(await w.row(id)).toMatchObject({ status: 'disconnected', code: 802, copy: 0, paste: 0 });
    expect(user.bytes.all.includes(Buffer.from('from-target-clipboard'))).toBe(false);
  });

  it('copy / paste on (no strategy): cut text passes both ways', async () => {
    const w = await world();
    const assetId = await w.asset('fake-open', '127.0.0.1', target.port);
    const before = target.received.length;
    const id = await w.open(assetId);
    const user = await w.attach(id);
    await user.connected();
    await user.handshake();
    expect(await user.bytes.read(8 + 21)).toEqual(cutText(3, 'from-target-clipboard'));
    user.send(cutText(6, 'from-browser-clipboard'));
    const seen = target.received[before] as Bytes;
    await eventually('the paste reached the target', () => seen.all.includes(cutText(6, 'from-browser-clipboard')));
    user.ws.close();
    await eventually('the session ended', async () => (await w.row(id)).status === 'disconnected');
  });

  it('garbage from the browser after the handshake ends the session with a reason', async () => {
    const w = await world();
    const assetId = await w.asset('fake-garbage', '127.0.0.1', target.port);
    const id = await w.open(assetId);
    const user = await w.attach(id);
    await user.connected();
    await user.handshake();
    user.send(Buffer.from([0x99, 1, 2, 3, 4, 5, 6, 7, 8]));
    await user.closed;
    expect(user.closedWith).toBe(MSG_BROWSER_STREAM);
    expect(await w.row(id)).toMatchObject({ status: 'disconnected', code: 805, message: MSG_BROWSER_STREAM });
    // The server goes on: another session opens.
    const next = await w.attach(await w.open(assetId));
    await next.connected();
    expect(next.closedWith).toBeUndefined();
    next.ws.close();
  });
});
