import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectError } from '../../../../server/modules/sessions/reach.ts';
import { type Desktop, type DesktopRequest, openRdpDesktop } from '../../../../server/modules/sessions/rdp/desktop.ts';
import { startDisplay } from '../../../../server/modules/sessions/rdp/display.ts';
import { startFreeRdp } from '../../../../server/modules/sessions/rdp/freerdp.ts';
import { REASON, reasonOf } from '../../../../server/modules/sessions/rdp/reasons.ts';
import { DesktopSlots, findOrphans, MSG_DESKTOP_FULL, sweepOrphans } from '../../../../server/modules/sessions/rdp/supervise.ts';
import { rfbConnect, rfbServerInit } from '../../../../server/modules/sessions/vnc/rfb-handshake.ts';
import { freePort } from '../../sshd.ts';
import { startXrdp, type TestXrdp, xrdpUnavailable } from './xrdp.ts';

/*
 * The RDP desktop against a real xrdp (TLS, no NLA) showing an Xvnc with an xterm: the per-session Xvnc shows the
 * remote session (pixels through its Unix socket), the password is on no command line or environment, the certificate
 * is pinned on first use and a changed one is refused before any password is sent, unreachable hosts and the cap are
 * refused with their reasons, and orphans of a crashed server are swept.
 */

const unavailable = xrdpUnavailable();
const ROOT = path.resolve(import.meta.dirname, '../../../..');

// Direct targets only here: reach() never asks the gateways.
const deps = { gateways: {} } as unknown as DesktopRequest['deps'];

let xrdp: TestXrdp;
beforeAll(async () => {
  if (!unavailable) xrdp = await startXrdp();
}, 30_000);
afterAll(async () => {
  await xrdp?.stop();
});

const request = (over: Partial<DesktopRequest> = {}): DesktopRequest => ({
  deps,
  sessionId: `t${Math.random().toString(36).slice(2, 10)}`,
  target: { host: '127.0.0.1', port: xrdp.port, accessGatewayId: null },
  username: 'alice',
  password: xrdp.password,
  pinned: null,
  attributes: new Map(),
  flags: { clipboard: false },
  width: 800,
  height: 600,
  slots: new DesktopSlots(5),
  ...over,
});

/** A full framebuffer update of the display, read through its Unix socket (RFB None, Raw only). */
async function screenshot(socketPath: string): Promise<{ width: number; height: number; pixels: Buffer }> {
  const socket = net.connect(socketPath);
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  try {
    const { socket: s } = await rfbConnect(socket);
    const init = await rfbServerInit(s, true);
    const { width, height } = init;
    // SetEncodings: Raw only.
    s.write(Buffer.from([2, 0, 0, 1, 0, 0, 0, 0]));
    const request = Buffer.alloc(10);
    request.writeUInt8(3, 0);
    request.writeUInt16BE(width, 6);
    request.writeUInt16BE(height, 8);
    s.write(request);
    const pixels = Buffer.alloc(width * height * 4);
    let buf = Buffer.alloc(0);
    const need = async (n: number) => {
      while (buf.length < n) {
        const chunk: Buffer | null = s.read();
        if (chunk) buf = Buffer.concat([buf, chunk]);
        else await new Promise((r) => s.once('readable', r));
      }
      const out = buf.subarray(0, n);
      buf = buf.subarray(n);
      return out;
    };
    s.resume();
    s.pause();
    let covered = 0;
    while (covered < width * height) {
      const head = await need(4);
      expect(head[0]).toBe(0);
      const rects = head.readUInt16BE(2);
      for (let i = 0; i < rects; i++) {
        const r = await need(12);
        const [x, y, w, h] = [r.readUInt16BE(0), r.readUInt16BE(2), r.readUInt16BE(4), r.readUInt16BE(6)];
        expect(r.readInt32BE(8)).toBe(0);
        const data = await need(w * h * 4);
        for (let row = 0; row < h; row++) data.copy(pixels, ((y + row) * width + x) * 4, row * w * 4, (row + 1) * w * 4);
        covered += w * h;
      }
    }
    return { width, height, pixels };
  } finally {
    socket.destroy();
  }
}

const colours = (pixels: Buffer) => {
  const seen = new Set<number>();
  for (let i = 0; i < pixels.length && seen.size < 10; i += 4) seen.add(pixels.readUInt32LE(i) & 0xffffff);
  return seen.size;
};

const procText = (pid: number, file: string) => fs.readFileSync(`/proc/${pid}/${file}`, 'latin1');
const childrenOf = (pid: number): number[] =>
  fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((p) => {
      try {
        return Number(/^PPid:\s*(\d+)/m.exec(procText(p, 'status'))?.[1]) === pid;
      } catch {
        return false;
      }
    });

describe.skipIf(unavailable)('RDP desktop through xrdp', () => {
  it('shows the remote session in its Xvnc, pins the certificate on first use, and keeps the password out of /proc', async () => {
    const pinned: string[] = [];
    const desktop: Desktop = await openRdpDesktop(request({ pin: async (f) => void pinned.push(f) }));
    try {
      expect(pinned).toEqual([xrdp.fingerprint()]);
      expect(desktop.fingerprint).toBe(xrdp.fingerprint());
      expect(fs.statSync(desktop.socketPath).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(desktop.socketPath)).mode & 0o777).toBe(0o700);
      // xrdp logged in to its VNC session with the password FreeRDP read from stdin.
      await expect.poll(() => xrdp.log(), { timeout: 10_000 }).toMatch(/VNC password ok/);

      // Pixels: xrdp draws the xterm's session; retry until it has (the first frame may still be blank).
      await expect
        .poll(async () => colours((await screenshot(desktop.socketPath)).pixels), { timeout: 15_000, interval: 500 })
        .toBeGreaterThan(1);
      const shot = await screenshot(desktop.socketPath);
      expect([shot.width, shot.height]).toEqual([800, 600]);

      // The password is on no command line and in no environment of the desktop's processes.
      const pids = [desktop.freerdp.pid, desktop.display.pid, ...childrenOf(desktop.freerdp.pid), ...childrenOf(desktop.display.pid)];
      for (const pid of pids) {
        expect(procText(pid, 'cmdline')).not.toContain(xrdp.password);
        expect(procText(pid, 'environ')).not.toContain(xrdp.password);
      }
      const cmdline = procText(desktop.freerdp.pid, 'cmdline').split('\0');
      expect(cmdline).toContain('/from-stdin:force');
      expect(cmdline).toContain('-clipboard');
      expect(procText(desktop.freerdp.pid, 'environ')).not.toMatch(/JUMPGATE_SECRET|JUMPGATE_ADMIN/);
      // No TCP listener of the display.
      expect(procText(desktop.display.pid, 'cmdline').split('\0')).toEqual(expect.arrayContaining(['-rfbport', '-1', '-SecurityTypes', 'None']));
    } finally {
      await desktop.stop();
    }
    expect(fs.existsSync(desktop.socketPath)).toBe(false);
    expect(() => process.kill(desktop.freerdp.pid, 0)).toThrow();
    expect(() => process.kill(desktop.display.pid, 0)).toThrow();
  }, 60_000);

  it('refuses a changed certificate before FreeRDP runs, and FreeRDP itself refuses one that is not pinned', async () => {
    const old = xrdp.fingerprint();
    await xrdp.restart({ newCertificate: true });
    expect(xrdp.fingerprint()).not.toBe(old);
    const slots = new DesktopSlots(1);
    const failure = await openRdpDesktop(request({ pinned: old, slots })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ConnectError);
    expect((failure as ConnectError).code).toBe(806);
    expect((failure as ConnectError).message).toContain(`创建RDP连接失败：${REASON.certificate}`);
    expect((failure as ConnectError).message).toContain(`${old} → 对方出示 ${xrdp.fingerprint()}`);
    expect(slots.inUse).toBe(0);

    // FreeRDP given the old pin (the certificate changing between our check and its connection): it refuses the
    // certificate, and xrdp never receives a password.
    const before = xrdp.log().length;
    const display = await startDisplay({ sessionId: 'cert-check', width: 800, height: 600 });
    try {
      const freerdp = startFreeRdp('cert-check', display, { host: '127.0.0.1', port: xrdp.port, username: 'alice', fingerprint: old, attributes: new Map() }, xrdp.password, { clipboard: false });
      const exit = await freerdp.exited;
      expect(exit.code).not.toBe(0);
      expect(reasonOf(exit.output)).toBe(REASON.certificate);
      expect(xrdp.log().slice(before)).not.toMatch(/Client supplied (username|password)/);
    } finally {
      await display.stop();
    }
  }, 60_000);

  it('says why an unreachable host fails, and the cap refuses the next desktop before anything starts', async () => {
    const closed = await freePort();
    const failure = await openRdpDesktop(request({ target: { host: '127.0.0.1', port: closed, accessGatewayId: null } })).catch((e: unknown) => e);
    expect((failure as ConnectError).code).toBe(806);
    expect((failure as ConnectError).message).toMatch(/^创建RDP连接失败：连接被拒绝（/);

    const slots = new DesktopSlots(1);
    const held = slots.acquire();
    const refused = await openRdpDesktop(request({ slots })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConnectError);
    expect((refused as ConnectError).message).toBe(MSG_DESKTOP_FULL);
    held();
    expect(slots.inUse).toBe(0);
  }, 30_000);

  it('sweeps the displays a crashed server left behind, and only those', async () => {
    // A "server" in a child process starts a display, then dies by SIGKILL: its Xvnc stays, reparented.
    const script = path.join(ROOT, 'tests/server/sessions/rdp/orphan-parent.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      child.once('exit', (code) => reject(new Error(`orphan-parent exited ${code}`)));
    });
    // Our own display is alive and not an orphan.
    const mine = await startDisplay({ sessionId: 'not-an-orphan', width: 640, height: 480 });
    try {
      expect(findOrphans().map((o) => o.pid)).not.toContain(pid);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      expect(findOrphans().map((o) => o.pid)).toContain(pid);
      const swept = sweepOrphans();
      expect(swept.map((o) => o.pid)).toContain(pid);
      expect(swept.map((o) => o.pid)).not.toContain(mine.pid);
      await expect.poll(() => fs.existsSync(`/proc/${pid}`) && !/^State:\s*Z/m.test(procText(pid, 'status')), { timeout: 5000 }).toBe(false);
      expect(() => process.kill(mine.pid, 0)).not.toThrow();
    } finally {
      await mine.stop();
    }
  }, 60_000);
});
