import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { autoLogin, DEFAULT_PATTERNS } from '../../../../server/modules/sessions/telnet/login.ts';
import { TelnetStream } from '../../../../server/modules/sessions/telnet/stream.ts';

/*
 * The login automation against hosts played by the test over loopback TCP: one that echoes the password (a careless
 * device), one that never shows a prompt.
 */

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

/** A host that runs `script` on its side of the connection; the stream is the bastion's. */
async function host(script: (socket: net.Socket, line: () => Promise<string>) => Promise<void>) {
  const server = net.createServer((socket) => {
    let buffered = '';
    const waiters: (() => void)[] = [];
    socket.on('data', (d: Buffer) => {
      buffered += d.toString('latin1');
      for (const w of waiters.splice(0)) w();
    });
    const line = async (): Promise<string> => {
      for (;;) {
        const at = buffered.search(/\r\0|\r\n|\r/);
        if (at >= 0) {
          const text = buffered.slice(0, at);
          buffered = buffered.slice(at).replace(/^(\r\0|\r\n|\r)/, '');
          return text.replace(/\xff[\xfb-\xfe]./g, '');
        }
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    };
    void script(socket, line).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  const stream = new TelnetStream(socket, { cols: 80, rows: 24 });
  cleanup.push(() => {
    stream.destroy();
    server.close();
  });
  return stream;
}

describe('autoLogin', () => {
  it('types the account at the prompts and cuts an echoed password out of what the user will see', async () => {
    const password = 'Echoed-Secret-9';
    const stream = await host(async (socket, line) => {
      socket.write('login: ');
      const user = await line();
      socket.write(`${user}\r\nPassword: `);
      const pw = await line();
      socket.write(`${pw}\r\n`); // echoes it
      socket.write(pw === password ? 'ok\r\n$ ' : 'Login incorrect\r\n');
    });
    const { outcome, shown } = await autoLogin(stream, { username: 'admin', password }, { ...DEFAULT_PATTERNS, success: /\$ $/ }, () => false);
    expect(outcome).toBe('in');
    const text = shown.toString('utf8');
    expect(text).toContain('login: admin');
    expect(text).toContain('ok\r\n$ ');
    expect(text.includes(password)).toBe(false);
  });

  it('a refusal is a failure', async () => {
    const stream = await host(async (socket, line) => {
      socket.write('Username: ');
      await line();
      socket.write('Password: ');
      await line();
      socket.write('\r\n% Authentication failed\r\n');
    });
    const { outcome } = await autoLogin(stream, { username: 'admin', password: 'wrong' }, DEFAULT_PATTERNS, () => false);
    expect(outcome).toBe('failed');
  });

  it('stops when the user leaves, and when the host closes', async () => {
    const silent = await host(async () => {});
    let left = false;
    const leaving = autoLogin(silent, { username: 'admin', password: 'x' }, DEFAULT_PATTERNS, () => left);
    left = true;
    expect((await leaving).outcome).toBe('left');
    const closing = await host(async (socket) => {
      socket.end('bye\r\n');
    });
    const { outcome, shown } = await autoLogin(closing, { username: 'admin', password: 'x' }, DEFAULT_PATTERNS, () => false);
    expect(outcome).toBe('closed');
    expect(shown.toString()).toBe('bye\r\n');
  });
});
