import net from 'node:net';
import ssh2 from 'ssh2';
import { fingerprintOf } from '../../server/modules/credentials/host-key.ts';
import { ed25519KeyPair } from './sshd.ts';

// ssh2 is CommonJS: Node's ESM loader sees only its default export.
const { Server, utils } = ssh2;

/*
 * A fake SSH server for tests (issue 28): an ssh2 `Server` on 127.0.0.1 with a host key of its own that records every
 * password offered to it (password and keyboard-interactive), so a test asserts that a secret never reached it
 * instead of inferring it. It accepts one login when told which (`accept`), and, as a fake access gateway, forwards
 * every direct-tcpip channel to a local port of the test's choosing (`forwardTo`), whatever the client asked for.
 *
 *   const fake = await startFakeSsh();
 *   … expect(fake.passwords).toEqual([]);
 *   await fake.stop();
 */

export interface Offered {
  username: string;
  method: string;
  password?: string;
}

export interface FakeSsh {
  host: string;
  port: number;
  /** Its host key's fingerprint, as OpenSSH prints it (`SHA256:…`). */
  fingerprint: string;
  /** Every authentication attempt, in order. */
  offered: Offered[];
  /** Every password offered (both methods). */
  readonly passwords: string[];
  stop(): Promise<void>;
}

export async function startFakeSsh(opts: { accept?: { username: string; password: string }; forwardTo?: number } = {}): Promise<FakeSsh> {
  const key = ed25519KeyPair();
  const parsed = utils.parseKey(key.public);
  if (parsed instanceof Error) throw parsed;
  const fingerprint = fingerprintOf((Array.isArray(parsed) ? parsed[0] : parsed).getPublicSSH());
  const offered: Offered[] = [];
  const sockets = new Set<net.Socket>();
  const accepts = (username: string, password: string | undefined) => opts.accept !== undefined && opts.accept.username === username && opts.accept.password === password;

  const server = new Server({ hostKeys: [key.private] }, (client) => {
    client.on('error', () => {});
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password') {
        offered.push({ username: ctx.username, method: 'password', password: ctx.password });
        return accepts(ctx.username, ctx.password) ? ctx.accept() : ctx.reject(['password', 'keyboard-interactive']);
      }
      if (ctx.method === 'keyboard-interactive') {
        return ctx.prompt([{ prompt: 'Password: ', echo: false }], (answers) => {
          offered.push({ username: ctx.username, method: 'keyboard-interactive', password: answers[0] });
          if (accepts(ctx.username, answers[0])) ctx.accept();
          else ctx.reject(['password', 'keyboard-interactive']);
        });
      }
      offered.push({ username: ctx.username, method: ctx.method });
      ctx.reject(['password', 'keyboard-interactive']);
    });
    client.on('ready', () => {
      client.on('tcpip', (accept, reject) => {
        if (opts.forwardTo === undefined) return reject();
        const channel = accept();
        const socket = net.connect(opts.forwardTo, '127.0.0.1');
        sockets.add(socket);
        socket.on('error', () => channel.destroy());
        socket.on('close', () => sockets.delete(socket));
        channel.on('error', () => socket.destroy());
        channel.pipe(socket).pipe(channel);
      });
      client.on('session', (_accept, reject) => reject());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    fingerprint,
    offered,
    get passwords() {
      return offered.flatMap((o) => (o.password === undefined ? [] : [o.password]));
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
        setTimeout(resolve, 1000).unref();
      }),
  };
}
