import fs from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CLOSE } from '../../../../server/modules/sessions/live.ts';
import { markerOf } from '../../../../server/modules/sessions/rdp/display.ts';
import { RDP_RECORDING } from '../../../../server/modules/sessions/rdp/relay.ts';
import { recordingFolder } from '../../../../server/modules/sessions/shared.ts';
import { adminWith } from '../../resources/helpers.ts';
import { eventually, sessionsHarness } from '../helpers.ts';
import { Bytes } from '../vnc/fake.ts';
import { startXrdp, type TestXrdp, xrdpUnavailable } from './xrdp.ts';

/*
 * The RDP relay end to end: the real app (RDP in its default relays), a real xrdp (TLS, no NLA) showing an Xvnc with an
 * xterm, the browser's WebSocket speaking RFB as noVNC does (written here, not the server's parsers). The attach
 * gives the browser's size; the bastion's Xvnc has that size; a watcher holding only 监控 sees it; an admin's
 * disconnect ends both and the session's processes; the recording is the VNC one; the password is nowhere; the
 * certificate pinned at the first login survives an edit of the asset.
 */

const unavailable = xrdpUnavailable();

class DesktopClient {
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
  static open(url: string): Promise<DesktopClient> {
    const ws = new WebSocket(url);
    const client = new DesktopClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }
  connected(ms = 45_000): Promise<void> {
    return eventually('the connected frame', () => this.frames.includes('1') || this.closedWith !== undefined, ms);
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
    this.send(Buffer.of(0));
    const head = await this.bytes.read(24);
    const name = await this.bytes.read(head.readUInt32BE(20));
    return { width: head.readUInt16BE(0), height: head.readUInt16BE(2), name: name.toString(), raw: Buffer.concat([head, name]) };
  }
  /** 32 bpp true colour, Raw only. */
  setUp(): void {
    this.send(Buffer.concat([Buffer.of(0, 0, 0, 0), PIXEL_FORMAT]));
    this.send(Buffer.from([2, 0, 0, 1, 0, 0, 0, 0]));
  }
  /** Asks for the whole screen and reads updates until it is covered; returns how many colours it holds (up to 10). */
  screen(width: number, height: number): Promise<number> {
    return this.readScreen(width, height).catch((err: Error) => {
      throw new Error(`${err.message}; frames: ${this.frames.join(' | ')}`);
    });
  }
  private async readScreen(width: number, height: number): Promise<number> {
    const request = Buffer.alloc(10);
    request.writeUInt8(3, 0);
    request.writeUInt16BE(width, 6);
    request.writeUInt16BE(height, 8);
    this.send(request);
    const colours = new Set<number>();
    let covered = 0;
    while (covered < width * height) {
      const type = (await this.bytes.read(1))[0];
      if (type === 2) continue; // Bell
      if (type === 3) {
        const length = (await this.bytes.read(7)).readUInt32BE(3);
        await this.bytes.read(length);
        continue;
      }
      expect(type).toBe(0);
      const rects = (await this.bytes.read(3)).readUInt16BE(1);
      for (let i = 0; i < rects; i++) {
        const r = await this.bytes.read(12);
        const [w, h] = [r.readUInt16BE(4), r.readUInt16BE(6)];
        expect(r.readInt32BE(8)).toBe(0);
        const data = await this.bytes.read(w * h * 4);
        for (let at = 0; at < data.length && colours.size < 10; at += 4) colours.add(data.readUInt32LE(at) & 0xffffff);
        covered += w * h;
      }
    }
    return colours.size;
  }
}

const PIXEL_FORMAT = Buffer.from([32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0, 0, 0, 0]);

/** Processes whose command line carries the session's marker (its Xvnc and xfreerdp). */
function processesOf(sessionId: string): { pid: number; comm: string }[] {
  const marker = markerOf(sessionId);
  const found: { pid: number; comm: string }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'latin1');
      if (cmdline.split('\0').some((a) => a.includes(marker))) found.push({ pid: Number(entry), comm: fs.readFileSync(`/proc/${entry}/comm`, 'latin1').trim() });
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Every file under `dir`. */
const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f)).filter((f) => fs.statSync(f).isFile()) : [];

/** The contract's reader: the header line and the records. */
function readRecording(file: string) {
  const all = fs.readFileSync(file);
  const nl = all.indexOf(0x0a);
  const header = JSON.parse(all.subarray(0, nl).toString('utf8')) as { [k: string]: unknown };
  const records: { type: number; body: Buffer }[] = [];
  let at = nl + 1;
  while (at + 9 <= all.length) {
    const length = all.readUInt32BE(at + 5);
    if (at + 9 + length > all.length) break;
    records.push({ type: all[at] as number, body: all.subarray(at + 9, at + 9 + length) });
    at += 9 + length;
  }
  return { header, records };
}

describe.skipIf(unavailable)('the RDP relay through the app (real xrdp)', () => {
  let xrdp: TestXrdp;
  beforeAll(async () => {
    xrdp = await startXrdp();
  }, 30_000);
  afterAll(() => xrdp?.stop());

  it("opens at the browser's size, shows pixels, is watched, ended by an admin with its processes; recorded; the password nowhere; the pin survives an edit", async () => {
    const w = await sessionsHarness();
    const base = (await w.h.listen()).replace(/^http/, 'ws');
    const password = w.secret(xrdp.password);
    const body = {
      name: 'win',
      protocol: 'rdp',
      ip: xrdp.host,
      port: xrdp.port,
      accountType: 'custom',
      username: 'alice',
      tags: '',
      description: '',
      security: 'tls',
      'enable-wallpaper': 'false',
    };
    const assetId = (await w.api.ok<{ id: string }>('POST', '/assets', { body: { ...body, password } })).id;
    const asset = async () => w.api.ok<{ hostKey: string; security: string }>('GET', `/assets/${assetId}`);
    expect((await asset()).hostKey).toBe('');

    const opened = await w.api.ok<{ id: string; protocol: string; fileSystem: string }>('POST', `/sessions?assetId=${assetId}&mode=guacd`);
    expect(opened).toMatchObject({ protocol: 'rdp', fileSystem: '0' });
    const id = opened.id;
    const row = () => w.h.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const user = await DesktopClient.open(`${base}/sessions/${id}/rdp?width=1024&height=768&X-Auth-Token=${encodeURIComponent(w.root)}`);
    await user.connected();
    expect(user.closedWith).toBeUndefined();
    expect(user.frames[0]).toBe('1');
    const init = await user.handshake();
    expect(init).toMatchObject({ width: 1024, height: 768, name: markerOf(id) });
    expect(await row()).toMatchObject({ status: 'connecting', protocol: 'rdp', username: 'alice', width: 1024, height: 768 });
    await w.api.ok('POST', `/sessions/${id}/connect`);
    // First use pinned the certificate.
    expect((await asset()).hostKey).toBe(xrdp.fingerprint());

    // Pixels that are not one colour (xrdp may paint the xterm's session a moment after FreeRDP's window appears).
    user.setUp();
    const deadline = Date.now() + 20_000;
    let colours = await user.screen(1024, 768);
    while (colours < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 300));
      colours = await user.screen(1024, 768);
    }
    expect(colours).toBeGreaterThan(1);

    // The session's Xvnc and xfreerdp, with the password on no command line and in no environment.
    const processes = processesOf(id);
    expect(processes.map((p) => p.comm).sort()).toEqual(['Xvnc', 'xfreerdp']);
    for (const { pid } of processes) {
      expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1')).not.toContain(password);
      expect(fs.readFileSync(`/proc/${pid}/environ`, 'latin1')).not.toContain(password);
    }
    expect(fs.readFileSync(`/proc/${processes.find((p) => p.comm === 'xfreerdp')?.pid}/cmdline`, 'latin1').split('\0')).toContain('/size:1024x768');

    // A watcher holding only 监控 (and the list) sees the screen.
    const auditor = await adminWith(w.h, ['online-session', 'online-session-monitor'], 'auditor');
    const watcher = await DesktopClient.open(`${base}/sessions/${id}/rdp-monitor?X-Auth-Token=${encodeURIComponent(auditor.token)}`);
    await watcher.connected(10_000);
    expect(watcher.closedWith).toBeUndefined();
    expect(await watcher.handshake()).toMatchObject({ width: 1024, height: 768 });
    watcher.setUp();
    expect(await watcher.screen(1024, 768)).toBeGreaterThan(1);

    // An admin's disconnect ends both with the reason, and the session's processes.
    const admin = await adminWith(w.h, ['online-session', 'online-session-disconnect'], 'closer');
    await w.as(admin.token).ok('POST', `/sessions/${id}/disconnect`);
    await user.closed;
    await watcher.closed;
    expect(user.closedWith).toBe(CLOSE.forced.message);
    expect(watcher.closedWith).toBe(CLOSE.forced.message);
    expect(await row()).toMatchObject({ status: 'disconnected', code: CLOSE.forced.code });
    await eventually('the Xvnc and xfreerdp of the session gone', () => processesOf(id).length === 0 && processes.every((p) => !fs.existsSync(`/proc/${p.pid}`)));

    // The recording: the header (the ServerInit as the browser got it) and a keyframe of the whole screen.
    const file = path.join(recordingFolder(w.config, id), RDP_RECORDING);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const { header, records } = readRecording(file);
    expect(header).toMatchObject({ version: 1, kind: 'rfb', width: 1024, height: 768, name: markerOf(id), serverInit: init.raw.toString('base64') });
    expect(records.some((r) => r.type === 0)).toBe(true);
    const key = records.find((r) => r.type === 2)?.body;
    expect(key, 'a keyframe').toBeDefined();
    expect([key?.readUInt16BE(0), key?.readUInt16BE(2)]).toEqual([1024, 768]);
    expect(inflateSync((key as Buffer).subarray(4)).length).toBe(1024 * 768 * 4);

    // The password: in no frame of either socket, no file of the server's (recordings, data folder, database).
    for (const client of [user, watcher]) {
      expect(client.frames.join('\n')).not.toContain(password);
      expect(client.bytes.all.includes(Buffer.from(password))).toBe(false);
    }
    const files = [...new Set([...filesUnder(w.config.dataDir), ...filesUnder(w.config.recordingDir)])];
    expect(files).toContain(file);
    for (const f of files) expect(fs.readFileSync(f).includes(Buffer.from(password)), f).toBe(false);

    // An edit without hostKey (the form's PUT) keeps the pin; the attributes came back as stored.
    await w.api.ok('PUT', `/assets/${assetId}`, { body: { ...body, description: 'edited' } });
    expect(await asset()).toMatchObject({ hostKey: xrdp.fingerprint(), security: 'tls' });
  }, 120_000);

  it('refuses RDP attributes out of their values, and an attach size out of bounds', async () => {
    const w = await sessionsHarness();
    const base = (await w.h.listen()).replace(/^http/, 'ws');
    const body = { name: 'bad', protocol: 'rdp', ip: '127.0.0.1', port: 3389, accountType: 'custom', username: 'a', password: 'p', tags: '', description: '' };
    const refused = async (extra: Record<string, string>, message: RegExp) => {
      const res = await w.h.call('POST', '/assets', { token: w.root, body: { ...body, ...extra } });
      expect(res.body.code, JSON.stringify(extra)).not.toBe(1);
      expect(res.body.message).toMatch(message);
    };
    await refused({ security: 'rdp' }, /security.*standard RDP security.*any, nla, nla-ext, tls/);
    await refused({ security: 'tls1' }, /security.*expected one of: any, nla, nla-ext, tls/);
    await refused({ console: 'yes' }, /console.*true, false/);
    await refused({ 'disable-glyph-caching': '1' }, /disable-glyph-caching.*true, false/);
    const assetId = (await w.api.ok<{ id: string }>('POST', '/assets', { body: { ...body, security: 'nla', console: 'true', 'load-balance-info': 'tsv://x' } })).id;
    expect(await w.api.ok('GET', `/assets/${assetId}`)).toMatchObject({ security: 'nla', console: 'true', 'load-balance-info': 'tsv://x' });

    const id = (await w.api.ok<{ id: string }>('POST', `/sessions?assetId=${assetId}&mode=guacd`)).id;
    for (const q of ['width=639&height=768', 'width=1024&height=2161', 'width=1024.5&height=768', 'width=abc']) {
      const client = await DesktopClient.open(`${base}/sessions/${id}/rdp?${q}&X-Auth-Token=${encodeURIComponent(w.root)}`).catch((e: Error) => e);
      if (client instanceof Error) {
        expect(client.message, q).toMatch(/400/);
        continue;
      }
      await client.closed;
      expect(client.frames.includes('1'), q).toBe(false);
    }
    // The session was never attached by those.
    expect((await w.h.db.selectFrom('sessions').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('no_connect');
  });
});

describe("an RDP asset's certificate pin", () => {
  it('is kept, trusted and dropped by the host-key rules; a VNC asset has none', async () => {
    const w = await sessionsHarness();
    const pin = `SHA256:${Buffer.alloc(32, 7).toString('base64').replace(/=+$/, '')}`;
    const other = `SHA256:${Buffer.alloc(32, 9).toString('base64').replace(/=+$/, '')}`;
    const body = { name: 'win', protocol: 'rdp', ip: '127.0.0.1', port: 3389, accountType: 'custom', username: 'a', tags: '', description: '' };
    const id = (await w.api.ok<{ id: string }>('POST', '/assets', { body: { ...body, password: 'pw-1', hostKey: pin } })).id;
    const hostKey = async () => (await w.api.ok<{ hostKey: string }>('GET', `/assets/${id}`)).hostKey;
    expect(await hostKey()).toBe(pin);
    await w.api.ok('PUT', `/assets/${id}`, { body: { ...body, description: 'no hostKey given' } });
    expect(await hostKey()).toBe(pin);
    expect(await w.api.ok('POST', `/assets/${id}/trust-host-key`, { body: { hostKey: other } })).toEqual({ hostKey: other });
    expect(await hostKey()).toBe(other);
    // The owner moving the asset drops the pin: the next login pins the new host.
    await w.api.ok('PUT', `/assets/${id}`, { body: { ...body, port: 3390 } });
    expect(await hostKey()).toBe('');

    const vnc = (await w.api.ok<{ id: string }>('POST', '/assets', { body: { ...body, name: 'desk', protocol: 'vnc', port: 5900, password: 'pw-2', hostKey: pin } })).id;
    expect((await w.api.ok<{ hostKey: string }>('GET', `/assets/${vnc}`)).hostKey).toBe('');
    expect((await w.api.call('POST', `/assets/${vnc}/trust-host-key`, { body: { hostKey: pin } })).body).toEqual({ code: -1, message: '只有 SSH 和 RDP 资产有主机密钥或证书指纹' });
  });
});
