import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../sshd.ts';

/*
 * A real Telnet server for tests: Debian's inetutils-inetd in the foreground (`-d`) on a free 127.0.0.1 port, with one
 * service line running inetutils' telnetd (`-h`: no banner naming the host; `-E`: our login program instead of
 * /bin/login). telnetd does the real negotiation (TTYPE, NAWS, ECHO, SGA, BINARY) and hands our script a PTY with TERM
 * set; the script is a test-only login: it asks `login: ` and `Password: ` itself (no echo of the password), says
 * `Login incorrect` on a wrong pair, and on the right one runs /bin/sh with the prompt `$ `. Nothing of the system's
 * accounts is used. inetd and telnetd need root: CI runs as root (.ci/run installs inetutils-inetd, inetutils-telnetd).
 *
 *   const telnetd = await startTelnetd();
 *   afterAll(() => telnetd.stop());
 */

export const TELNET_USER = 'tuser';
/** Fixed and test-only: the login script on loopback is the only one to accept it. */
export const TELNET_PASSWORD = 'Telnet-Test-Pw-7';
const INETD = '/usr/sbin/inetutils-inetd';
const TELNETD = '/usr/sbin/telnetd';
const START_TIMEOUT_MS = 10_000;

export interface TestTelnetd {
  host: string;
  port: number;
  username: string;
  password: string;
  stop(): Promise<void>;
}

/** Why startTelnetd cannot run here, or null. */
export function telnetdUnavailable(): string | null {
  if (!fs.existsSync(INETD) || !fs.existsSync(TELNETD)) return `${INETD} or ${TELNETD} is missing (apt-get install inetutils-inetd inetutils-telnetd)`;
  if (process.getuid?.() !== 0) return 'inetd and telnetd must be started as root';
  return null;
}

const LOGIN_SCRIPT = `#!/bin/sh
# Test-only login for telnetd -E (tests/server/sessions/telnet/telnetd.ts).
printf 'Jumpgate test host\\r\\n'
n=0
while [ $n -lt 3 ]; do
  n=$((n + 1))
  printf 'login: '
  IFS= read -r user || exit 1
  stty -echo
  printf 'Password: '
  IFS= read -r pass || exit 1
  stty echo
  printf '\\r\\n'
  if [ "$user" = '${TELNET_USER}' ] && [ "$pass" = '${TELNET_PASSWORD}' ]; then
    printf 'Welcome\\r\\n'
    PS1='$ ' exec /bin/sh -i
  fi
  printf 'Login incorrect\\r\\n'
done
exit 1
`;

/** Resolves once the port answers with Telnet (IAC …), as telnetd does at once. */
function waitForTelnet(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`inetd exited (${child.exitCode ?? child.signalCode}):\n${log()}`));
      if (Date.now() > deadline) return reject(new Error(`telnetd did not answer on 127.0.0.1:${port} within ${START_TIMEOUT_MS} ms:\n${log()}`));
      const socket = net.connect(port, '127.0.0.1');
      socket.setTimeout(1000);
      socket.once('data', (data) => {
        socket.destroy();
        if (data[0] === 255) resolve();
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

export async function startTelnetd(): Promise<TestTelnetd> {
  const unavailable = telnetdUnavailable();
  if (unavailable) throw new Error(`startTelnetd: ${unavailable}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-telnetd-'));
  const script = path.join(dir, 'login.sh');
  fs.writeFileSync(script, LOGIN_SCRIPT, { mode: 0o700 });
  const port = await freePort();
  const conf = path.join(dir, 'inetd.conf');
  fs.writeFileSync(conf, `127.0.0.1:${port} stream tcp nowait root ${TELNETD} telnetd -h -E ${script}\n`);
  // Its own process group: stop() ends inetd and the telnetd processes it started.
  const child = spawn(INETD, ['-d', conf], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForTelnet(port, child, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { host: '127.0.0.1', port, username: TELNET_USER, password: TELNET_PASSWORD, stop };
}

/** `POST /assets`'s body for a Telnet host on this server (the account typed at its prompts). */
export function telnetAsset(telnetd: TestTelnetd, name: string, extra: Record<string, string | number> = {}) {
  return { name, protocol: 'telnet', ip: telnetd.host, port: telnetd.port, accountType: 'custom', username: telnetd.username, password: telnetd.password, tags: '', description: '', ...extra };
}
