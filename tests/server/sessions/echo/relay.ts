import net from 'node:net';
import { ReachError, reach } from '../../../../server/modules/sessions/reach.ts';
import { ConnectError, type Relay } from '../../../../server/modules/sessions/relay.ts';

/*
 * A test-only protocol: the host is a plain TCP echo server, the relay opens a socket to it (through the core's
 * `reach`, so a gateway or proxy would work too) and hands it to the core as the terminal's stream. It is all a
 * protocol folder has to write; attach, access checks, recording, monitor and forced close are the core's.
 *
 * Which protocol: the assets' protocol column takes only the shared list (shared/protocols.ts), and this relay must
 * serve assets created through the real API: 'telnet', whose product relay (sessions/telnet/) answers at its own path;
 * this one answers at `/sessions/:id/echo` for the same rows (the attach checks the row's protocol, not the relay).
 */

/** Its own file name: the recording readers find it whatever the relay names it. */
export const ECHO_RECORDING = 'echo.cast';

export const echoRelay: Relay = {
  protocol: 'telnet',
  paths: { attach: '/sessions/:id/echo' },
  recordingFile: ECHO_RECORDING,
  async open({ deps, target }) {
    let stream: Awaited<ReturnType<typeof reach>>;
    try {
      stream = await reach(deps, await target(), 5000);
    } catch (err) {
      if (err instanceof ReachError) throw new ConnectError(-1, `echo: ${err.message}`);
      throw err;
    }
    return { username: 'echo', link: { stream, end: () => stream.destroy() } };
  },
};

/** A TCP echo server on loopback: every byte comes back. */
export async function startEchoServer(): Promise<{ port: number; stop(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
