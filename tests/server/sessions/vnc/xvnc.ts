import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../sshd.ts';

/*
 * A real VNC server for tests: TigerVNC's `Xvnc` (Debian's tigervnc-standalone-server, installed by .ci/run) on a
 * free display number and a free 127.0.0.1 port, with VncAuth and a password file made by `vncpasswd -f`
 * (tigervnc-tools; the password on its stdin, never on a command line), or with no security at all. The display is
 * blank (a 1024x768 root window): enough for the protocol.
 *
 *   const xvnc = await startXvnc({ password: 'secret12' });
 *   afterAll(() => xvnc.stop());
 */

const XVNC = '/usr/bin/Xvnc';
const VNCPASSWD = '/usr/bin/vncpasswd';
const START_TIMEOUT_MS = 10_000;
/** The desktop name ServerInit carries. */
export const XVNC_DESKTOP = 'jumpgate-test';

export interface TestXvnc {
  host: string;
  port: number;
  display: number;
  /** The password it takes (VncAuth), or undefined when it asks for none. */
  password?: string;
  width: number;
  height: number;
  /** Ends the server and removes its files (password file, X socket and lock). */
  stop(): Promise<void>;
}

/** Why startXvnc cannot run here, or null. */
export function xvncUnavailable(): string | null {
  if (!fs.existsSync(XVNC)) return `${XVNC} is missing (apt-get install tigervnc-standalone-server)`;
  if (!fs.existsSync(VNCPASSWD)) return `${VNCPASSWD} is missing (apt-get install tigervnc-tools)`;
  return null;
}

const displayFiles = (n: number) => [`/tmp/.X11-unix/X${n}`, `/tmp/.X${n}-lock`];

/** A display number whose socket and lock do not exist (Xvnc refuses a taken one anyway: then we try another). */
function freeDisplay(): number {
  for (;;) {
    const n = 100 + Math.floor(Math.random() * 900);
    if (!displayFiles(n).some((f) => fs.existsSync(f))) return n;
  }
}

/** Resolves once Xvnc answers with an RFB version line. */
function waitForBanner(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`Xvnc exited (${child.exitCode ?? child.signalCode}):\n${log()}`));
      if (Date.now() > deadline) return reject(new Error(`Xvnc did not answer on 127.0.0.1:${port} within ${START_TIMEOUT_MS} ms:\n${log()}`));
      const socket = net.connect(port, '127.0.0.1');
      socket.setTimeout(1000);
      socket.once('data', (data) => {
        socket.destroy();
        if (data.toString('latin1').startsWith('RFB ')) resolve();
        else setTimeout(attempt, 50);
      });
      const retry = () => {
        socket.destroy();
        setTimeout(attempt, 50);
      };
      socket.once('error', retry);
      socket.once('timeout', retry);
    };
    attempt();
  });
}

/**
 * `password`: VncAuth with it (otherwise None). `securityTypes`: Xvnc's own list instead (e.g. `TLSVnc`, which it
 * offers as VeNCrypt), with the password file when a password is given.
 */
export async function startXvnc(options: { password?: string; securityTypes?: string } = {}): Promise<TestXvnc> {
  const unavailable = xvncUnavailable();
  if (unavailable) throw new Error(`startXvnc: ${unavailable}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-xvnc-'));
  const security: string[] = ['-SecurityTypes', 'None'];
  if (options.password !== undefined) {
    const file = path.join(dir, 'passwd');
    fs.writeFileSync(file, execFileSync(VNCPASSWD, ['-f'], { input: `${options.password}\n` }), { mode: 0o600 });
    security.splice(0, 2, '-SecurityTypes', 'VncAuth', '-PasswordFile', file);
  }
  if (options.securityTypes) security.splice(1, 1, options.securityTypes);

  for (let tries = 1; ; tries++) {
    const display = freeDisplay();
    const port = await freePort();
    const args = [`:${display}`, '-rfbport', String(port), '-localhost', '-interface', '127.0.0.1', ...security, '-geometry', '1024x768', '-depth', '24', '-desktop', XVNC_DESKTOP, '-nolisten', 'tcp'];
    const child = spawn(XVNC, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-20_000);
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await waitForBanner(port, child, () => log);
    } catch (error) {
      child.kill('SIGKILL');
      await exited;
      // Another process took the display or the port between our check and Xvnc's: try another one.
      if (tries < 5 && /already active|in use|Address already|Cannot establish|EADDRINUSE/i.test(log)) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      throw error;
    }

    let stopped: Promise<void> | undefined;
    return {
      host: '127.0.0.1',
      port,
      display,
      password: options.password,
      width: 1024,
      height: 768,
      stop() {
        stopped ??= (async () => {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            await exited;
          }
          fs.rmSync(dir, { recursive: true, force: true });
          // Xvnc removes its socket and lock on a clean exit; a killed one leaves them.
          for (const f of displayFiles(display)) fs.rmSync(f, { force: true });
        })();
        return stopped;
      },
    };
  }
}
