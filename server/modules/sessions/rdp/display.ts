import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { track } from './supervise.ts';

/*
 * The per-session display of an RDP session: a private TigerVNC `Xvnc` in which xfreerdp draws the remote desktop,
 * served to the bastion (and only to it) as VNC on a Unix socket, so that the VNC pipeline (relay, recording, monitor,
 * player) shows RDP unchanged.
 *
 * Who can reach it:
 * - VNC: only on `<dir>/vnc.sock`, mode 0600 in a 0700 folder of the server's own user; no TCP (`-rfbport -1`: TigerVNC
 *   treats 0 as "5900 + display", checked on 1.12). Only the server's user (and root) can open it, so security type
 *   None is offered there: whoever can open the socket could read the server's memory anyway.
 * - X: `-nolisten tcp`; the Unix and abstract X sockets stay (xfreerdp needs one), guarded by a fresh
 *   MIT-MAGIC-COOKIE-1 in `<dir>/Xauthority` (0600, written here in the Xauthority format: the cookie is never on a
 *   command line, as `xauth add` would put it). The abstract socket has no file mode, the cookie is what keeps other
 *   local users out.
 * The marker `-desktop jumpgate-<sessionId>` (also the name the browser's ServerInit shows) and the owner's pid in the
 * environment let the start-up sweep (supervise.ts) find the displays a crashed server left behind.
 */

export const XVNC = '/usr/bin/Xvnc';
/** The desktop name, and the marker in the command line that finds orphans. */
export const MARKER_PREFIX = 'jumpgate-';
export const markerOf = (sessionId: string): string => `${MARKER_PREFIX}${sessionId}`;
/** The owner's pid, in the environment of every process a desktop session starts (supervise.ts). */
export const OWNER_ENV = 'JUMPGATE_DESKTOP_OWNER';

export const MIN_WIDTH = 640;
export const MIN_HEIGHT = 480;
export const MAX_WIDTH = 3840;
export const MAX_HEIGHT = 2160;
const START_TIMEOUT_MS = 10_000;
const STOP_GRACE_MS = 2_000;
/** A Unix socket path is at most 107 bytes on Linux; a longer base folder falls back to the system's temporary one. */
const MAX_SOCKET_PATH = 100;

/** The browser's size, bounded; RDP wants an even width (odd ones are rounded down by servers anyway). */
export function displaySize(width: number, height: number): { width: number; height: number } {
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Number.isFinite(v) ? Math.floor(v) : lo));
  return { width: clamp(width, MIN_WIDTH, MAX_WIDTH) & ~1, height: clamp(height, MIN_HEIGHT, MAX_HEIGHT) };
}

export interface Display {
  /** The X display number (`DISPLAY=:<n>`). */
  readonly display: number;
  readonly width: number;
  readonly height: number;
  /** The session's private folder (0700): the VNC socket, the X cookie, FreeRDP's home. */
  readonly dir: string;
  /** The VNC server's Unix socket. */
  readonly socketPath: string;
  /** The X cookie file, for `XAUTHORITY`. */
  readonly xauthority: string;
  readonly pid: number;
  /** Resolves when Xvnc exits, by itself or stopped. */
  readonly exited: Promise<void>;
  /** Ends Xvnc (TERM, then KILL after 2 s) and removes its files. Idempotent. */
  stop(): Promise<void>;
}

export interface DisplayOptions {
  sessionId: string;
  width: number;
  height: number;
  /** Where the session's folder is made (default: the system's temporary folder). */
  baseDir?: string;
}

const xFiles = (n: number) => [`/tmp/.X11-unix/X${n}`, `/tmp/.X${n}-lock`];

/** A display number whose X socket and lock are free (Xvnc refuses a taken one anyway: then we try another). */
function freeDisplay(): number {
  for (;;) {
    const n = 1000 + Math.floor(Math.random() * 9000);
    if (!xFiles(n).some((f) => fs.existsSync(f))) return n;
  }
}

/** An Xauthority file with one FamilyWild entry: any host, display `n`, MIT-MAGIC-COOKIE-1. */
export function xauthorityEntry(display: number, cookie: Buffer): Buffer {
  const field = (b: Buffer) => Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
  return Buffer.concat([Buffer.from([0xff, 0xff]), field(Buffer.alloc(0)), field(Buffer.from(String(display))), field(Buffer.from('MIT-MAGIC-COOKIE-1')), field(cookie)]);
}

/** The session's folder: 0700, short enough for a Unix socket path. */
function sessionDir(baseDir: string | undefined): string {
  let base = baseDir ?? os.tmpdir();
  if (path.join(base, 'rdp-XXXXXX', 'vnc.sock').length > MAX_SOCKET_PATH) base = os.tmpdir();
  fs.mkdirSync(base, { recursive: true, mode: 0o700 });
  const dir = fs.mkdtempSync(path.join(base, 'rdp-'));
  fs.chmodSync(dir, 0o700);
  return dir;
}

/** Resolves once the VNC socket answers with an RFB version line. */
function waitForRfb(socketPath: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`Xvnc exited (${child.exitCode ?? child.signalCode}): ${log()}`));
      if (Date.now() > deadline) return reject(new Error(`Xvnc did not answer within ${START_TIMEOUT_MS / 1000} s: ${log()}`));
      const socket = net.connect(socketPath);
      socket.setTimeout(1000);
      const retry = () => {
        socket.destroy();
        setTimeout(attempt, 50);
      };
      socket.once('data', (data) => {
        socket.destroy();
        if (data.toString('latin1').startsWith('RFB ')) resolve();
        else retry();
      });
      socket.once('error', retry);
      socket.once('timeout', retry);
    };
    attempt();
  });
}

/** Removes the X socket and lock of display `n` if the lock is Xvnc's (a killed Xvnc leaves them). */
function removeXFiles(n: number, pid: number | undefined): void {
  const [socket, lock] = xFiles(n) as [string, string];
  try {
    if (Number(fs.readFileSync(lock, 'latin1').trim()) !== pid) return;
  } catch {
    return;
  }
  fs.rmSync(socket, { force: true });
  fs.rmSync(lock, { force: true });
}

/** Starts the session's Xvnc and waits until it accepts VNC connections. Rejects (with nothing left behind) otherwise. */
export async function startDisplay(options: DisplayOptions): Promise<Display> {
  const { width, height } = displaySize(options.width, options.height);
  const dir = sessionDir(options.baseDir);
  const socketPath = path.join(dir, 'vnc.sock');
  const xauthority = path.join(dir, 'Xauthority');
  try {
    for (let tries = 1; ; tries++) {
      const display = freeDisplay();
      fs.writeFileSync(xauthority, xauthorityEntry(display, randomBytes(16)), { mode: 0o600 });
      // biome-ignore format: one option per line reads better
      const args = [
        `:${display}`,
        '-rfbport', '-1',
        '-rfbunixpath', socketPath,
        '-rfbunixmode', '0600',
        '-SecurityTypes', 'None',
        '-geometry', `${width}x${height}`,
        '-depth', '24',
        '-desktop', markerOf(options.sessionId),
        '-nolisten', 'tcp',
        '-auth', xauthority,
      ];
      const child = spawn(XVNC, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: '/usr/bin:/bin', [OWNER_ENV]: String(process.pid) }, cwd: dir });
      let log = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        log = (log + chunk.toString()).slice(-4000);
      });
      const exited = new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.once('error', () => resolve());
      });
      const untrack = track(child);
      try {
        await waitForRfb(socketPath, child, () => log.trim().split('\n').slice(-3).join(' | '));
      } catch (error) {
        child.kill('SIGKILL');
        await exited;
        untrack();
        removeXFiles(display, child.pid);
        // Another process took the display between our check and Xvnc's: try another one.
        if (tries < 5 && /already active|in use|Cannot establish any listening sockets/i.test(log)) continue;
        throw error;
      }
      let stopped: Promise<void> | undefined;
      return {
        display,
        width,
        height,
        dir,
        socketPath,
        xauthority,
        pid: child.pid as number,
        exited,
        stop() {
          stopped ??= (async () => {
            if (child.exitCode === null && child.signalCode === null) {
              child.kill('SIGTERM');
              const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
              await exited;
              clearTimeout(timer);
            }
            untrack();
            removeXFiles(display, child.pid);
            fs.rmSync(dir, { recursive: true, force: true });
          })();
          return stopped;
        },
      };
    }
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
