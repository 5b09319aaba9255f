import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';

// ssh2 is CommonJS: Node's ESM loader (npm start, Playwright) sees no named `utils` export, only the default.
const { utils } = ssh2;

/*
 * A real OpenSSH server for tests: `/usr/sbin/sshd` (Debian's openssh-server, installed by .ci/run) on a free
 * 127.0.0.1 port, with its own host key, config and authorized_keys in a temporary folder. Nothing of the system's
 * own sshd is used or touched.
 *
 * Account: one local user, SSHD_USER, created on first use (useradd + chpasswd, under a file lock so that test
 * files starting at once do not race) and left in place for the next run. It logs in with SSHD_PASSWORD (PAM) or
 * with a fresh ed25519 key per server (its public half in the temporary authorized_keys). TCP forwarding and the
 * SFTP subsystem are on (gateway tunnels, file manager). sshd needs root (privilege separation, switching to the
 * user): CI runs as root.
 *
 *   const sshd = await startSshd();
 *   afterAll(() => sshd.stop());
 */

export const SSHD_USER = 'jumpgate-test';
/** Fixed, so parallel test files agree; only our own sshd on loopback ever accepts it. */
export const SSHD_PASSWORD = 'Jumpgate-Sshd-Test-1';
const SSHD = '/usr/sbin/sshd';
const START_TIMEOUT_MS = 10_000;

export interface TestSshd {
  host: string;
  port: number;
  username: string;
  password: string;
  /** OpenSSH private key (ed25519, no passphrase) the server accepts for `username`. */
  privateKey: string;
  /** Ends the server (its connections' processes end with their clients). */
  stop(): Promise<void>;
}

/** Why startSshd cannot run here, or null (for `it.skipIf` outside CI, where the suite is expected to run as root). */
export function sshdUnavailable(): string | null {
  if (!fs.existsSync(SSHD)) return `${SSHD} is missing (apt-get install openssh-server)`;
  if (process.getuid?.() !== 0) return 'sshd must be started as root';
  return null;
}

function ensureUser(): void {
  // flock: several test files may create the user at the same moment; chpasswd every time keeps the password known.
  const script = `id -u ${SSHD_USER} >/dev/null 2>&1 || useradd -m -s /bin/bash ${SSHD_USER}; echo '${SSHD_USER}:${SSHD_PASSWORD}' | chpasswd`;
  execFileSync('flock', [path.join(os.tmpdir(), 'jumpgate-sshd-user.lock'), 'sh', '-c', script], { stdio: 'pipe' });
}

/**
 * An ed25519 key pair from ssh2, generated again while it is one ssh2 writes malformed: it drops a public key's
 * leading zero byte (1 key in 256, mscdex/ssh2#1514), and OpenSSH then refuses the key ("error in libcrypto").
 */
export function ed25519KeyPair(options: { passphrase?: string; cipher?: string; rounds?: number; comment?: string } = {}): {
  private: string;
  public: string;
} {
  for (;;) {
    const pair = utils.generateKeyPairSync('ed25519', options);
    if (!(utils.parseKey(pair.public) instanceof Error) && !(utils.parseKey(pair.private, options.passphrase) instanceof Error)) return pair;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once sshd answers with its banner (a bare TCP accept could still be the socket of a dying start). */
function waitForBanner(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`sshd exited (${child.exitCode ?? child.signalCode}):\n${log()}`));
      if (Date.now() > deadline) return reject(new Error(`sshd did not answer on 127.0.0.1:${port} within ${START_TIMEOUT_MS} ms:\n${log()}`));
      const socket = net.connect(port, '127.0.0.1');
      socket.setTimeout(1000);
      socket.once('data', (data) => {
        socket.destroy();
        if (data.toString('latin1').startsWith('SSH-')) resolve();
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

/** `POST /assets`'s body for an SSH host on this sshd, signing in with its account's password. */
export function sshAsset(sshd: TestSshd, name: string) {
  return { name, protocol: 'ssh', ip: sshd.host, port: sshd.port, accountType: 'custom', username: sshd.username, password: sshd.password, tags: '', description: '' };
}

export async function startSshd(): Promise<TestSshd> {
  const unavailable = sshdUnavailable();
  if (unavailable) throw new Error(`startSshd: ${unavailable}`);
  ensureUser();
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 }); // privilege separation directory

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-sshd-'));
  fs.chmodSync(dir, 0o755); // the user's side of sshd reads authorized_keys as the user
  const hostKey = ed25519KeyPair();
  fs.writeFileSync(path.join(dir, 'host_key'), hostKey.private, { mode: 0o600 });
  const clientKey = ed25519KeyPair({ comment: SSHD_USER });
  fs.writeFileSync(path.join(dir, 'authorized_keys'), `${clientKey.public}\n`, { mode: 0o644 });

  for (let tries = 1; ; tries++) {
    const port = await freePort();
    const config = [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${dir}/host_key`,
      `PidFile ${dir}/sshd.pid`,
      `AuthorizedKeysFile ${dir}/authorized_keys`,
      // The temporary folder sits in the world-writable /tmp, which StrictModes refuses.
      'StrictModes no',
      'PubkeyAuthentication yes',
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'UsePAM yes',
      'PermitRootLogin no',
      `AllowUsers ${SSHD_USER}`,
      'AllowTcpForwarding yes',
      'X11Forwarding no',
      'PrintMotd no',
      'Subsystem sftp internal-sftp',
      'MaxStartups 100',
      'MaxSessions 100',
      'LogLevel VERBOSE',
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'sshd_config'), `${config}\n`);

    // -D: stay in the foreground as our child (no daemon to hunt down); -e: log to stderr, kept for failures.
    const child = spawn(SSHD, ['-D', '-e', '-f', path.join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
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
      // Another process took the free port between our probe and sshd's bind: try another one.
      if (tries < 3 && /Address already in use|Cannot bind/i.test(log)) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      throw error;
    }

    let stopped: Promise<void> | undefined;
    return {
      host: '127.0.0.1',
      port,
      username: SSHD_USER,
      password: SSHD_PASSWORD,
      privateKey: clientKey.private,
      stop() {
        stopped ??= (async () => {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            await exited;
          }
          fs.rmSync(dir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
  }
}
