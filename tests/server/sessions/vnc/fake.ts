import net from 'node:net';

/*
 * Test-only byte plumbing for the VNC handshake tests: a queue of received bytes read in exact sizes (written here
 * again, not the server's RfbReader, so a test does not check the code with itself) and scripted fake RFB servers.
 */

export class Bytes {
  private buffer = Buffer.alloc(0);
  /** Everything ever received, in order. */
  all = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  ended = false;

  push(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    this.all = Buffer.concat([this.all, chunk]);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async read(n: number): Promise<Buffer> {
    while (this.buffer.length < n) {
      if (this.ended) throw new Error(`ended with ${this.buffer.length} of ${n} bytes`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }
}

export interface FakeServer {
  port: number;
  /** What each connection's client sent, in order of connection. */
  received: Bytes[];
  /** Sockets of the connections, to see them closed. */
  sockets: net.Socket[];
  close(): Promise<void>;
}

/** A TCP server on 127.0.0.1 that runs `script` on every connection. */
export async function fakeServer(script: (socket: net.Socket, received: Bytes) => void | Promise<void>): Promise<FakeServer> {
  const received: Bytes[] = [];
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => {
    const bytes = new Bytes();
    received.push(bytes);
    sockets.push(socket);
    socket.on('data', (c) => bytes.push(c));
    socket.on('close', () => bytes.end());
    socket.on('error', () => {});
    Promise.resolve(script(socket, bytes)).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    received,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export const connect = (port: number): Promise<net.Socket> =>
  new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });

export const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

export const reason = (s: string): Buffer => Buffer.concat([u32(Buffer.byteLength(s)), Buffer.from(s)]);
