import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fingerprintOfDer } from '../../../../server/modules/sessions/rdp/certificate.ts';
import { freePort } from '../../sshd.ts';
import { startXvnc, type TestXvnc, xvncUnavailable } from '../vnc/xvnc.ts';

/*
 * A real RDP server for tests: Debian's xrdp 0.9.21 without systemd or sesman — `xrdp --nodaemon --config <ini>` on
 * 127.0.0.1:<free port>, TLS only (no NLA: xrdp has none), whose `autorun` section shows a VNC session through
 * libvnc.so: a test Xvnc (VncAuth) with an xterm in it for pixels. The section's `password=ask` makes xrdp use the
 * RDP client's password as the VNC password, so a login with the wrong password fails at the VNC step (xrdp then shows
 * its error in the session instead of disconnecting). The TLS certificate is a fresh self-signed one made by openssl;
 * `restart({ newCertificate: true })` brings the same server back on the same port with another one.
 */

const XRDP = '/usr/sbin/xrdp';
const XTERM = '/usr/bin/xterm';
const OPENSSL = '/usr/bin/openssl';

export function xrdpUnavailable(): string | null {
  for (const [file, pkg] of [
    [XRDP, 'xrdp'],
    [XTERM, 'xterm'],
    [OPENSSL, 'openssl'],
    ['/usr/bin/xfreerdp', 'freerdp2-x11'],
  ] as const) {
    if (!fs.existsSync(file)) return `${file} is missing (apt-get install ${pkg})`;
  }
  return xvncUnavailable();
}

export interface TestXrdp {
  host: string;
  port: number;
  /** The password the session takes (the VNC one behind xrdp). */
  password: string;
  /** The VNC server xrdp shows (a benchmark compares RDP through the bastion with VNC straight to it). */
  vnc: { port: number; display: number };
  /** The current certificate's DER SHA-256 as `SHA256:<base64>`. */
  fingerprint(): string;
  /** xrdp's log so far (DEBUG: it says when a client supplied a password, never the password). */
  log(): string;
  /** Stops xrdp and starts it again on the same port (with a new certificate if asked). */
  restart(options?: { newCertificate?: boolean }): Promise<void>;
  stop(): Promise<void>;
}

function makeCertificate(dir: string, name: string): { cert: string; key: string } {
  const cert = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  execFileSync(OPENSSL, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=xrdp-test-${name}`, '-days', '2', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { cert, key };
}

function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`xrdp exited (${child.exitCode}): ${log()}`));
      if (Date.now() > deadline) return reject(new Error(`xrdp did not listen on ${port}: ${log()}`));
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve();
      });
      s.once('error', () => setTimeout(attempt, 50));
    };
    attempt();
  });
}

export async function startXrdp(options: { password?: string } = {}): Promise<TestXrdp> {
  const unavailable = xrdpUnavailable();
  if (unavailable) throw new Error(`startXrdp: ${unavailable}`);
  const password = options.password ?? 'rdp-pass1';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-xrdp-'));
  const xvnc: TestXvnc = await startXvnc({ password });
  const xterm = spawn(XTERM, ['-display', `:${xvnc.display}`, '-geometry', '80x24+20+20', '-bg', 'white', '-fg', 'black'], { stdio: 'ignore' });
  const port = await freePort();
  let certificate = makeCertificate(dir, 'a');
  let generation = 0;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async () => {
    const ini = path.join(dir, 'xrdp.ini');
    fs.writeFileSync(
      ini,
      `[Globals]
ini_version=1
fork=true
port=tcp://127.0.0.1:${port}
use_vsock=false
security_layer=tls
crypt_level=high
certificate=${certificate.cert}
key_file=${certificate.key}
ssl_protocols=TLSv1.2, TLSv1.3
autorun=session
allow_channels=true
max_bpp=32
new_cursors=true
[Logging]
LogFile=${path.join(dir, 'xrdp.log')}
LogLevel=DEBUG
EnableSyslog=false
EnableConsole=false
[Channels]
rdpdr=true
cliprdr=true
drdynvc=true
rail=false
rdpsnd=false
[session]
name=session
lib=libvnc.so
username=na
password=ask
ip=127.0.0.1
port=${xvnc.port}
`,
    );
    const c = spawn(XRDP, ['--nodaemon', '--config', ini], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let log = '';
    c.stderr?.on('data', (d: Buffer) => {
      log = (log + d.toString()).slice(-4000);
    });
    child = c;
    exited = new Promise((resolve) => c.once('exit', () => resolve()));
    await waitForPort(port, c, () => log);
  };
  const stopXrdp = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    // xrdp forks one process per connection: end the whole group.
    try {
      process.kill(-(c.pid as number), 'SIGKILL');
    } catch {
      c.kill('SIGKILL');
    }
    await exited;
  };
  await start();

  return {
    host: '127.0.0.1',
    port,
    password,
    vnc: { port: xvnc.port, display: xvnc.display },
    log: () => {
      try {
        return fs.readFileSync(path.join(dir, 'xrdp.log'), 'utf8');
      } catch {
        return '';
      }
    },
    fingerprint: () => {
      const der = execFileSync(OPENSSL, ['x509', '-in', certificate.cert, '-outform', 'DER']);
      return fingerprintOfDer(der);
    },
    async restart(o = {}) {
      await stopXrdp();
      if (o.newCertificate) certificate = makeCertificate(dir, `b${++generation}`);
      await start();
    },
    async stop() {
      await stopXrdp();
      xterm.kill('SIGKILL');
      await xvnc.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
