import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { freerdpFingerprint } from './certificate.ts';
import { type Display, OWNER_ENV, markerOf } from './display.ts';
import { track } from './supervise.ts';

/*
 * xfreerdp (FreeRDP 2.11, Debian's freerdp2-x11) inside the session's display (display.ts), full screen, connected to
 * the RDP host.
 *
 * The password goes on stdin only: with `/u:` (and `/d:` when there is a domain) on the command line, 2.11's
 * `/from-stdin:force` prompts `Password: ` (on stderr) and nothing else, before connecting; the password and a newline
 * are written, then stdin is closed (a later prompt, e.g. a certificate question, reads end of file and fails). The user
 * and domain names are no secrets (the row stores the user name). The environment is built here, not inherited: the
 * server's own (JUMPGATE_SECRET_KEY…) never reaches the child.
 *
 * The certificate is pinned: `/cert:fingerprint:sha256:<hex>,deny,name:<impossible>` — the fingerprint accepts the
 * pinned certificate; `name:` makes a CA-valid certificate for the host fail the name check, so that it is not accepted
 * either (FreeRDP would otherwise take any CA-valid one); `deny` refuses the rest without a prompt, before any
 * credential is sent (TLS: the Client Info PDU; NLA: CredSSP, both after the TLS handshake). FreeRDP's home is the
 * session's folder, so no known_hosts of the server's user is read or written.
 */

export const XFREERDP = '/usr/bin/xfreerdp';
/** A name no certificate can carry (`.invalid`, RFC 2606). */
const NO_NAME = 'jumpgate-pinned.invalid';
const STDERR_TAIL = 16 * 1024;

/** The session's strategy, as far as FreeRDP cares. */
export interface RdpFlags {
  /** Clipboard redirection when the strategy allows copy or paste. */
  clipboard: boolean;
  /** A folder shared as the drive `jumpgate` when the strategy allows files; undefined = none. */
  driveDir?: string;
}

export interface RdpTarget {
  /** Where FreeRDP dials: the host itself, or the loopback pipe (`pipeOnce`). */
  host: string;
  port: number;
  username: string;
  /** The pinned fingerprint (`SHA256:…`). Required: FreeRDP never runs unpinned. */
  fingerprint: string;
  /** The asset's RDP attributes (contract §3.4 and the extra ones below). */
  attributes: ReadonlyMap<string, string>;
}

/** Attribute values go into one argument each; control characters and huge values are refused. */
export class RdpArgumentError extends Error {}

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

const value = (attributes: ReadonlyMap<string, string>, name: string): string | undefined => {
  const v = attributes.get(name)?.trim();
  if (!v) return undefined;
  if (CONTROL.test(v) || v.length > 1024) throw new RdpArgumentError(`${name}: control characters or longer than 1024 characters`);
  return v;
};
const on = (attributes: ReadonlyMap<string, string>, name: string) => attributes.get(name) === 'true';

/** `security` attribute → FreeRDP's /sec (standard RDP security has no certificate to pin: refused by the relay). */
export const SECURITY_MODES = ['', 'any', 'nla', 'nla-ext', 'tls'] as const;

/** FreeRDP's arguments, the password excluded (it goes on stdin). */
export function freerdpArgs(sessionId: string, display: Pick<Display, 'width' | 'height'>, target: RdpTarget, flags: RdpFlags): string[] {
  const a = target.attributes;
  const security = a.get('security')?.trim() ?? '';
  if (!(SECURITY_MODES as readonly string[]).includes(security)) throw new RdpArgumentError(`security: ${security} is not one of ${SECURITY_MODES.filter(Boolean).join(', ')}`);
  const colorDepth = value(a, 'color-depth');
  if (colorDepth && !['8', '15', '16', '24', '32'].includes(colorDepth)) throw new RdpArgumentError(`color-depth: ${colorDepth}`);
  const pcid = value(a, 'preconnection-id');
  if (pcid && !/^\d{1,10}$/.test(pcid)) throw new RdpArgumentError(`preconnection-id: ${pcid}`);
  if (!target.username || CONTROL.test(target.username)) throw new RdpArgumentError('username');

  const args = [
    `/v:${target.host.includes(':') ? `[${target.host}]` : target.host}`,
    `/port:${target.port}`,
    `/u:${target.username}`,
    '/from-stdin:force',
    `/cert:fingerprint:sha256:${freerdpFingerprint(target.fingerprint)},deny,name:${NO_NAME}`,
    // The display is the screen: full screen in it, no window manager, no way out of it.
    '/f',
    `/size:${display.width}x${display.height}`,
    '-toggle-fullscreen',
    '-decorations',
    `/wm-class:${markerOf(sessionId)}`,
    '-auto-reconnect',
    '/log-level:WARN',
    flags.clipboard ? '+clipboard' : '-clipboard',
  ];
  const domain = value(a, 'domain');
  if (domain) args.push(`/d:${domain}`);
  if (security === 'nla') args.push('/sec:nla');
  else if (security === 'nla-ext') args.push('/sec:ext');
  else if (security === 'tls') args.push('/sec:tls');
  else args.push('-sec-rdp');
  if (colorDepth) args.push(`/bpp:${colorDepth}`);
  const app = value(a, 'remote-app');
  if (app) {
    args.push(`/app:${app}`);
    const dir = value(a, 'remote-app-dir');
    if (dir) args.push(`/app-workdir:${dir}`);
    const cmd = value(a, 'remote-app-args');
    if (cmd) args.push(`/app-cmd:${cmd}`);
  }
  if (on(a, 'console')) args.push('/admin');
  if (pcid) args.push(`/pcid:${pcid}`);
  const pcb = value(a, 'preconnection-blob');
  if (pcb) args.push(`/pcb:${pcb}`);
  const lb = value(a, 'load-balance-info');
  if (lb) args.push(`/load-balance-info:${lb}`);
  // The look: off unless enabled (Guacamole's names), which keeps updates small.
  args.push(on(a, 'enable-wallpaper') ? '+wallpaper' : '-wallpaper');
  args.push(on(a, 'enable-theming') ? '+themes' : '-themes');
  args.push(on(a, 'enable-font-smoothing') ? '+fonts' : '-fonts');
  args.push(on(a, 'enable-full-window-drag') ? '+window-drag' : '-window-drag');
  args.push(on(a, 'enable-desktop-composition') ? '+aero' : '-aero');
  args.push(on(a, 'enable-menu-animations') ? '+menu-anims' : '-menu-anims');
  if (on(a, 'disable-bitmap-caching')) args.push('-bitmap-cache');
  if (on(a, 'disable-offscreen-caching')) args.push('-offscreen-cache');
  if (on(a, 'disable-glyph-caching')) args.push('-glyph-cache');
  if (flags.driveDir) args.push(`/drive:jumpgate,${flags.driveDir}`);
  return args;
}

export interface FreeRdp {
  readonly pid: number;
  /** Resolves with the exit (code or signal) and the tail of its output (stderr and stdout: FreeRDP logs on both). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
  /** The output so far (bounded). */
  output(): string;
  /** TERM, then KILL after 2 s. Idempotent. */
  stop(): Promise<void>;
}

/** Starts xfreerdp in `display`; the password is written on its stdin, then stdin closes. */
export function startFreeRdp(sessionId: string, display: Display, target: RdpTarget, password: string, flags: RdpFlags): FreeRdp {
  if (/[\r\n]/.test(password)) throw new RdpArgumentError('the password holds a line break, which FreeRDP cannot read from stdin');
  const args = freerdpArgs(sessionId, display, target, flags);
  const home = path.join(display.dir, 'home');
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  const env = {
    PATH: '/usr/bin:/bin',
    DISPLAY: `:${display.display}`,
    XAUTHORITY: display.xauthority,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    LANG: 'C.UTF-8',
    [OWNER_ENV]: String(process.pid),
  };
  const child: ChildProcess = spawn(XFREERDP, args, { stdio: ['pipe', 'pipe', 'pipe'], env, cwd: home });
  const untrack = track(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-STDERR_TAIL);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.stdin?.on('error', () => {
    // Exited before reading: its exit says why.
  });
  child.stdin?.end(`${password}\n`);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) => {
    child.once('error', (err) => resolve({ code: null, signal: null, output: `${output}\n${err.message}` }));
    child.once('exit', (code, signal) => {
      untrack();
      // The pipes may still hold the last lines: read them before answering.
      setImmediate(() => resolve({ code, signal, output }));
    });
  });
  let stopped: Promise<void> | undefined;
  return {
    pid: child.pid as number,
    exited,
    output: () => output,
    stop() {
      stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
          child.kill('SIGTERM');
          await exited;
          clearTimeout(timer);
        }
      })();
      return stopped;
    },
  };
}

/**
 * For a host behind an access gateway or a SOCKS proxy, which FreeRDP cannot dial: a listener on 127.0.0.1 (an
 * ephemeral port) that takes **one** connection, pipes it to the socket `connect()` gives (reach()'s), and closes. A
 * connection from any process but `allowed()`'s pid (xfreerdp) is refused, so another local user cannot borrow the
 * tunnel in the moment it is open.
 */
export async function pipeOnce(connect: () => Promise<Duplex>, allowed: () => number | undefined, timeoutMs = 15_000): Promise<{ port: number; done: Promise<void>; close(): void }> {
  const server = net.createServer({ pauseOnConnect: true });
  let remote: Duplex | undefined;
  let local: net.Socket | undefined;
  let settle: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const close = () => {
    clearTimeout(timer);
    server.close();
    local?.destroy();
    remote?.destroy();
    settle();
  };
  const timer = setTimeout(() => {
    if (!local) close();
  }, timeoutMs);
  server.on('connection', (socket) => {
    const pid = allowed();
    if (local || pid === undefined || !socketOwnedBy(socket, pid)) {
      socket.destroy();
      return;
    }
    local = socket;
    server.close();
    clearTimeout(timer);
    connect().then(
      (r) => {
        remote = r;
        r.on('error', close);
        socket.on('error', close);
        r.once('close', close);
        socket.once('close', close);
        r.pipe(socket);
        socket.pipe(r);
        socket.resume();
      },
      () => close(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return { port: (server.address() as net.AddressInfo).port, done, close };
}

/** Whether the peer of an accepted loopback socket is a socket of process `pid` (/proc/net/tcp → inode → its fds). */
export function socketOwnedBy(socket: net.Socket, pid: number): boolean {
  const port = socket.remotePort;
  if (!port) return false;
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  let inode: string | undefined;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let table = '';
    try {
      table = fs.readFileSync(file, 'latin1');
    } catch {
      continue;
    }
    for (const line of table.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is the peer's end: <addr>:<port>; the connected entry has a non-zero remote port.
      if (cols[1]?.endsWith(`:${hex}`) && cols[2] && !cols[2].endsWith(':0000') && cols[9] && cols[9] !== '0') inode = cols[9];
    }
  }
  if (!inode) return false;
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}
