import type net from 'node:net';
import { Duplex } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rfbConnect, rfbServerInit } from '../../../../server/modules/sessions/vnc/rfb-handshake.ts';
import { RfbError } from '../../../../server/modules/sessions/vnc/rfb-reader.ts';
import { connect, type FakeServer, fakeServer, reason, u32 } from './fake.ts';
import { startXvnc, type TestXvnc, XVNC_DESKTOP, xvncUnavailable } from './xvnc.ts';

const PASSWORD = 'Vnc-Test-7';

/** A socket seen through a plain Duplex (not a net.Socket), as an access gateway's SSH channel is. */
function wrapped(socket: net.Socket): Duplex {
  const duplex: Duplex = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk, _encoding, callback) {
      socket.write(chunk, callback);
    },
    final(callback) {
      socket.end(callback);
    },
    destroy(err, callback) {
      socket.destroy();
      callback(err);
    },
  });
  socket.on('data', (chunk) => {
    if (!duplex.push(chunk)) socket.pause();
  });
  socket.on('end', () => duplex.push(null));
  socket.on('close', () => duplex.destroy());
  return duplex;
}

/** The RfbError a promise rejects with. */
async function failure(p: Promise<unknown>): Promise<RfbError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof RfbError)) throw new Error(`expected an RfbError, got ${String(err)}`);
  return err;
}

describe.skipIf(xvncUnavailable())('against a real Xvnc', () => {
  let withPassword: TestXvnc;
  let open: TestXvnc;
  beforeAll(async () => {
    [withPassword, open] = await Promise.all([startXvnc({ password: PASSWORD }), startXvnc()]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([withPassword?.stop(), open?.stop()]);
  });

  it('logs in with the right password (VncAuth, 3.8), then ClientInit gets a 1024x768 ServerInit', async () => {
    const socket = await connect(withPassword.port);
    const connected = await rfbConnect(socket, { password: PASSWORD });
    expect(connected).toMatchObject({ version: '3.8', serverVersion: 'RFB 003.008', securityType: 2, socket });
    expect(socket.isPaused()).toBe(true);
    const init = await rfbServerInit(socket, true);
    expect([init.width, init.height]).toEqual([1024, 768]);
    expect(init.pixelFormat).toMatchObject({ bitsPerPixel: 32, depth: 24, trueColour: true });
    expect(init.name).toBe(XVNC_DESKTOP);
    expect(init.raw).toHaveLength(24 + Buffer.byteLength(init.name));
    socket.destroy();
  });

  it('through a Duplex that is not a net.Socket (a gateway channel)', async () => {
    const socket = wrapped(await connect(withPassword.port));
    expect(await rfbConnect(socket, { password: PASSWORD })).toMatchObject({ securityType: 2, socket });
    const init = await rfbServerInit(socket, true);
    expect([init.width, init.height]).toEqual([1024, 768]);
    socket.destroy();
  });

  it('a wrong password is the wrong-password error, with the server reason for admins', async () => {
    const socket = await connect(withPassword.port);
    const err = await failure(rfbConnect(socket, { password: 'not-the-one' }));
    expect(err).toMatchObject({ side: 'target', kind: 'auth', message: 'VNC 认证失败，请检查资产的密码' });
    expect(err.detail).toMatch(/the server said: .+/);
    expect(err.full).not.toContain('not-the-one');
    expect(socket.destroyed).toBe(true);
  });

  it('without a password, a VncAuth server is refused before anything is tried', async () => {
    const socket = await connect(withPassword.port);
    const err = await failure(rfbConnect(socket, { password: '' }));
    expect(err.kind).toBe('password-required');
    expect(socket.destroyed).toBe(true);
  });

  it('a None server needs no password', async () => {
    const socket = await connect(open.port);
    expect(await rfbConnect(socket)).toMatchObject({ version: '3.8', securityType: 1 });
    const init = await rfbServerInit(socket, false);
    expect([init.width, init.height]).toEqual([1024, 768]);
    socket.destroy();
  });
});

describe.skipIf(xvncUnavailable())('a real Xvnc that offers only VeNCrypt', () => {
  let tlsVnc: TestXvnc;
  let tlsNone: TestXvnc;
  let x509: TestXvnc;
  beforeAll(async () => {
    [tlsVnc, tlsNone, x509] = await Promise.all([
      startXvnc({ password: PASSWORD, securityTypes: 'TLSVnc' }),
      startXvnc({ securityTypes: 'TLSNone' }),
      startXvnc({ password: PASSWORD, securityTypes: 'X509Vnc' }),
    ]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([tlsVnc?.stop(), tlsNone?.stop(), x509?.stop()]);
  });

  it('TLSVnc: VncAuth inside anonymous TLS, then the ServerInit over the TLS socket', async () => {
    const socket = await connect(tlsVnc.port);
    const connected = await rfbConnect(socket, { password: PASSWORD });
    expect(connected).toMatchObject({ version: '3.8', securityType: 19, subtype: 258 });
    expect(connected.socket).not.toBe(socket);
    const init = await rfbServerInit(connected.socket, true);
    expect([init.width, init.height]).toEqual([1024, 768]);
    connected.socket.destroy();
  });

  it('TLSVnc with a wrong password: the wrong-password error', async () => {
    const socket = await connect(tlsVnc.port);
    expect(await failure(rfbConnect(socket, { password: 'not-the-one' }))).toMatchObject({ kind: 'auth' });
    expect(socket.destroyed).toBe(true);
  });

  it('TLSVnc through a Duplex that is not a net.Socket (a gateway channel)', async () => {
    const socket = wrapped(await connect(tlsVnc.port));
    const connected = await rfbConnect(socket, { password: PASSWORD });
    expect(connected).toMatchObject({ securityType: 19, subtype: 258 });
    const init = await rfbServerInit(connected.socket, true);
    expect([init.width, init.height]).toEqual([1024, 768]);
    connected.socket.destroy();
  });

  it('TLSNone: no password', async () => {
    const socket = await connect(tlsNone.port);
    const connected = await rfbConnect(socket);
    expect(connected).toMatchObject({ securityType: 19, subtype: 257 });
    const init = await rfbServerInit(connected.socket, true);
    expect([init.width, init.height]).toEqual([1024, 768]);
    connected.socket.destroy();
  });

  it('X509 subtypes only (a certificate to trust): refused clearly, with what was offered', async () => {
    const socket = await connect(x509.port);
    const err = await failure(rfbConnect(socket, { password: PASSWORD }));
    expect(err).toMatchObject({ side: 'target', kind: 'unsupported-security', offered: [19], detail: 'offered: VeNCrypt with 261 (X509Vnc)' });
    expect(socket.destroyed).toBe(true);
  });
});

describe('against scripted servers', () => {
  let server: FakeServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function run(script: Parameters<typeof fakeServer>[0], options: Parameters<typeof rfbConnect>[1] = {}) {
    server = await fakeServer(script);
    const socket = await connect(server.port);
    return { socket, result: rfbConnect(socket, options) };
  }

  it.each([
    ['RFB 003.003\n', 'RFB 003.003\n'],
    ['RFB 003.005\n', 'RFB 003.003\n'],
    ['RFB 003.007\n', 'RFB 003.007\n'],
    ['RFB 003.008\n', 'RFB 003.008\n'],
    ['RFB 003.889\n', 'RFB 003.008\n'],
    ['RFB 004.001\n', 'RFB 003.008\n'],
  ])('answers %j with %j', async (offered, answer) => {
    const { result } = await run(async (s, got) => {
      s.write(offered);
      const version = (await got.read(12)).toString();
      if (version === 'RFB 003.003\n') s.write(u32(1));
      else if (version === 'RFB 003.007\n') s.write(Buffer.of(1, 1));
      else s.write(Buffer.concat([Buffer.of(1, 1)]));
      if (version !== 'RFB 003.003\n') await got.read(1);
      if (version === 'RFB 003.008\n') s.write(u32(0));
    });
    expect((await result).securityType).toBe(1);
    expect(server?.received[0]?.all.subarray(0, 12).toString()).toBe(answer);
  });

  it('3.3 with VncAuth: answers the challenge, no reason on failure', async () => {
    const { socket, result } = await run(async (s, got) => {
      s.write('RFB 003.003\n');
      await got.read(12);
      s.write(Buffer.concat([u32(2), Buffer.alloc(16, 7)]));
      await got.read(16);
      s.write(u32(1));
      s.end();
    }, { password: PASSWORD });
    const err = await failure(result);
    expect(err).toMatchObject({ kind: 'auth', detail: 'SecurityResult 1' });
    expect(socket.destroyed).toBe(true);
  });

  it('prefers None when both None and VncAuth are offered, and sends only its choice', async () => {
    const { result } = await run(async (s, got) => {
      s.write('RFB 003.008\n');
      await got.read(12);
      s.write(Buffer.of(2, 2, 1));
      await got.read(1);
      s.write(u32(0));
    }, { password: PASSWORD });
    expect((await result).securityType).toBe(1);
    expect(server?.received[0]?.all.subarray(12)).toEqual(Buffer.of(1));
  });

  it('no supported type: the list offered', async () => {
    const { result } = await run(async (s, got) => {
      s.write('RFB 003.008\n');
      await got.read(12);
      s.write(Buffer.of(2, 18, 16));
    });
    const err = await failure(result);
    expect(err).toMatchObject({ kind: 'unsupported-security', offered: [18, 16], message: 'VNC 服务器未提供堡垒机支持的安全类型' });
    expect(err.detail).toBe('offered: 18 (TLS), 16 (Tight)');
  });

  it('a huge VeNCrypt subtype count is a protocol error', async () => {
    const { result } = await run(async (s, got) => {
      s.write('RFB 003.008\n');
      await got.read(12);
      s.write(Buffer.of(1, 19));
      await got.read(1);
      s.write(Buffer.of(0, 2));
      await got.read(2);
      s.write(Buffer.of(0, 255));
    });
    expect(await failure(result)).toMatchObject({ kind: 'protocol', detail: '255 VeNCrypt subtypes' });
  });

  it('a refusal (no types) carries its reason', async () => {
    const { result } = await run((s) => {
      s.write(Buffer.concat([Buffer.from('RFB 003.008\n'), Buffer.of(0), reason('Too many security failures')]));
    });
    expect(await failure(result)).toMatchObject({ kind: 'refused', detail: 'the server said: Too many security failures' });
  });

  it('a 3.8 failed SecurityResult after None is a refusal with its reason', async () => {
    const { result } = await run(async (s, got) => {
      s.write('RFB 003.008\n');
      await got.read(12);
      s.write(Buffer.of(1, 1));
      await got.read(1);
      s.write(Buffer.concat([u32(1), reason('no more clients\u0007')]));
    });
    expect(await failure(result)).toMatchObject({ kind: 'refused', detail: 'the server said: no more clients\\x07' });
  });

  it('a garbage version line is a protocol error, printed safely', async () => {
    const { socket, result } = await run((s) => {
      s.write('HTTP/1.1 400 Bad Request\r\n\r\n');
    });
    const err = await failure(result);
    expect(err).toMatchObject({ side: 'target', kind: 'protocol', detail: 'not an RFB version line: "HTTP/1.1 400"' });
    expect(socket.destroyed).toBe(true);
  });

  it('a huge reason length is refused before any of it is awaited', async () => {
    const { result } = await run((s) => {
      s.write(Buffer.concat([Buffer.from('RFB 003.008\n'), Buffer.of(0), u32(0xffffffff)]));
    });
    const err = await failure(result);
    expect(err).toMatchObject({ kind: 'protocol' });
    expect(err.detail).toBe('a reason of 4294967295 bytes (at most 4096)');
  });

  it('a huge desktop name in ServerInit is a protocol error', async () => {
    server = await fakeServer(async (s, got) => {
      s.write('RFB 003.008\n');
      await got.read(12);
      s.write(Buffer.of(1, 1));
      await got.read(1);
      s.write(u32(0));
      await got.read(1);
      s.write(Buffer.concat([Buffer.alloc(20), u32(50_000_000)]));
    });
    const socket = await connect(server.port);
    await rfbConnect(socket);
    const err = await failure(rfbServerInit(socket, true));
    expect(err.detail).toBe('a desktop name of 50000000 bytes (at most 16384)');
    expect(socket.destroyed).toBe(true);
  });

  it('a server that stalls: the timeout error, the socket closed', async () => {
    const { socket, result } = await run(() => {}, { timeoutMs: 200 });
    const err = await failure(result);
    expect(err).toMatchObject({ kind: 'timeout', message: 'VNC 握手超时' });
    expect(socket.destroyed).toBe(true);
  });

  it('a server that closes in the middle: the closed error', async () => {
    const { result } = await run((s) => {
      s.end('RFB 003.008\n');
    });
    expect((await failure(result)).kind).toBe('closed');
  });

  it('a socket already closed: the closed error at once', async () => {
    server = await fakeServer(() => {});
    const closed = await connect(server.port);
    closed.destroy();
    expect((await failure(rfbConnect(closed))).kind).toBe('closed');
  });

  it('stops on an abort signal', async () => {
    const abort = new AbortController();
    const { result } = await run(() => {}, { signal: abort.signal });
    abort.abort();
    expect((await failure(result)).kind).toBe('aborted');
  });

  it('leaves the bytes after the handshake in the socket', async () => {
    server = await fakeServer(async (s, got) => {
      s.write('RFB 003.008\n');
      await got.read(12);
      // The choice, the result and then bytes that belong to the next step, all in one write.
      s.write(Buffer.concat([Buffer.of(1, 1)]));
      await got.read(1);
      s.write(Buffer.concat([u32(0), Buffer.from('after')]));
    });
    const socket: net.Socket = await connect(server.port);
    await rfbConnect(socket);
    expect(socket.isPaused()).toBe(true);
    const next = await new Promise<Buffer>((resolve) => socket.once('data', resolve).resume());
    expect(next.toString()).toBe('after');
    socket.destroy();
  });
});
