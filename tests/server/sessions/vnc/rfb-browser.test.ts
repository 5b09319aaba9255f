import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { type BrowserChannel, rfbServe, type VncBridge, vncBridge, wsChannel } from '../../../../server/modules/sessions/vnc/rfb-browser.ts';
import { RfbError } from '../../../../server/modules/sessions/vnc/rfb-reader.ts';
import { vncKey } from '../../../../server/modules/sessions/vnc/vnc-auth.ts';
import { Bytes, connect, type FakeServer, fakeServer, u32 } from './fake.ts';
import { startXvnc, type TestXvnc, XVNC_DESKTOP, xvncUnavailable } from './xvnc.ts';

const PASSWORD = 'Vnc-Test-7';

/**
 * A bastion in miniature: a WebSocket server whose every connection runs vncBridge to `targetPort` and then relays
 * bytes unchanged both ways (what the VNC relay will do on the sessions core).
 */
async function bastion(targetPort: () => number, password: string, timeoutMs?: number) {
  const bridges: Promise<VncBridge>[] = [];
  const targets: import('node:net').Socket[] = [];
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (ws) => {
    const started = (async () => {
      const target = await connect(targetPort());
      targets.push(target);
      try {
        const bridge = await vncBridge({ target, browser: wsChannel(ws), password, timeoutMs });
        const socket = bridge.target.socket; // the TLS one after VeNCrypt
        bridge.browser.handOff(
          (chunk) => socket.write(chunk),
          () => socket.destroy(),
        );
        socket.on('data', (chunk) => ws.send(chunk));
        socket.on('close', () => ws.close());
        socket.resume();
        return bridge;
      } catch (err) {
        ws.close(4000, 'handshake failed');
        throw err;
      }
    })();
    started.catch(() => {}); // read by the test
    bridges.push(started);
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    bridges,
    targets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        for (const t of targets) t.destroy();
        wss.close(() => resolve());
      }),
  };
}

/** The browser: a WebSocket whose binary messages are collected in order. */
async function browser(url: string) {
  const ws = new WebSocket(url);
  const bytes = new Bytes();
  ws.on('message', (data: Buffer) => bytes.push(data));
  ws.on('close', () => bytes.end());
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, bytes, send: (b: Buffer | string) => ws.send(Buffer.from(b)) };
}

async function failure(p: Promise<unknown>): Promise<RfbError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof RfbError)) throw new Error(`expected an RfbError, got ${String(err)}`);
  return err;
}

/** The n-th connection's bridge, once the bastion has taken it. */
async function nth(bridges: Promise<VncBridge>[], n: number): Promise<VncBridge> {
  while (bridges.length <= n) await new Promise((resolve) => setTimeout(resolve, 5));
  return bridges[n] as Promise<VncBridge>;
}

describe.skipIf(xvncUnavailable())('the browser side against a real Xvnc', () => {
  let xvnc: TestXvnc;
  let relay: Awaited<ReturnType<typeof bastion>>;
  beforeAll(async () => {
    xvnc = await startXvnc({ password: PASSWORD });
    relay = await bastion(() => xvnc.port, PASSWORD);
  }, 30_000);
  afterAll(async () => {
    await relay?.close();
    await xvnc?.stop();
  });

  it('offers the browser None only, then relays the real ServerInit and the framebuffer; the password never reaches it', async () => {
    const b = await browser(relay.url);
    expect((await b.bytes.read(12)).toString()).toBe('RFB 003.008\n');
    b.send('RFB 003.008\n');
    expect(await b.bytes.read(2)).toEqual(Buffer.of(1, 1)); // one type: None
    b.send(Buffer.of(1));
    expect((await b.bytes.read(4)).readUInt32BE(0)).toBe(0); // SecurityResult OK
    b.send(Buffer.of(1)); // ClientInit, shared
    const head = await b.bytes.read(24);
    expect([head.readUInt16BE(0), head.readUInt16BE(2)]).toEqual([1024, 768]);
    const name = await b.bytes.read(head.readUInt32BE(20));
    expect(name.toString()).toBe(XVNC_DESKTOP);

    const bridge = await nth(relay.bridges, 0);
    expect(bridge.target).toMatchObject({ version: '3.8', securityType: 2 });
    expect(bridge.browser).toMatchObject({ version: '3.8', shared: true });
    expect(bridge.serverInit.raw.equals(Buffer.concat([head, name]))).toBe(true);

    // After the handshakes bytes flow unchanged: a full FramebufferUpdateRequest for a 16x16 corner.
    b.send(Buffer.of(3, 0, 0, 0, 0, 0, 0, 16, 0, 16));
    const update = await b.bytes.read(4);
    expect(update[0]).toBe(0); // FramebufferUpdate
    expect(update.readUInt16BE(2)).toBeGreaterThan(0);

    // Nothing the browser got holds the password, its VNC key or its stored DES form.
    const stored = execFileSync('/usr/bin/vncpasswd', ['-f'], { input: `${PASSWORD}\n` });
    for (const secret of [Buffer.from(PASSWORD), Buffer.from(PASSWORD.slice(0, 8)), vncKey(PASSWORD), stored]) {
      expect(b.bytes.all.includes(secret)).toBe(false);
    }
    b.ws.close();
  });

  it('a 3.3 browser client gets None as 3.3 says it (a type, no SecurityResult)', async () => {
    const b = await browser(relay.url);
    await b.bytes.read(12);
    b.send('RFB 003.003\n');
    expect((await b.bytes.read(4)).readUInt32BE(0)).toBe(1);
    b.send(Buffer.of(0));
    const head = await b.bytes.read(24);
    expect([head.readUInt16BE(0), head.readUInt16BE(2)]).toEqual([1024, 768]);
    b.ws.close();
  });
});

describe.skipIf(xvncUnavailable())('the browser side against a real Xvnc speaking VeNCrypt (TLSVnc)', () => {
  let xvnc: TestXvnc;
  let relay: Awaited<ReturnType<typeof bastion>>;
  beforeAll(async () => {
    xvnc = await startXvnc({ password: PASSWORD, securityTypes: 'TLSVnc' });
    relay = await bastion(() => xvnc.port, PASSWORD);
  }, 30_000);
  afterAll(async () => {
    await relay?.close();
    await xvnc?.stop();
  });

  it('the browser still sees None only, then the ServerInit and framebuffer updates through the TLS socket', async () => {
    const b = await browser(relay.url);
    await b.bytes.read(12);
    b.send('RFB 003.008\n');
    expect(await b.bytes.read(2)).toEqual(Buffer.of(1, 1));
    b.send(Buffer.of(1));
    expect((await b.bytes.read(4)).readUInt32BE(0)).toBe(0);
    b.send(Buffer.of(1));
    const head = await b.bytes.read(24);
    expect([head.readUInt16BE(0), head.readUInt16BE(2)]).toEqual([1024, 768]);
    await b.bytes.read(head.readUInt32BE(20));
    expect((await nth(relay.bridges, 0)).target).toMatchObject({ securityType: 19, subtype: 258 });
    b.send(Buffer.of(3, 0, 0, 0, 0, 0, 0, 16, 0, 16));
    expect((await b.bytes.read(4))[0]).toBe(0);
    expect(b.bytes.all.includes(Buffer.from(PASSWORD))).toBe(false);
    b.ws.close();
  });
});

describe.skipIf(xvncUnavailable())('a wrong password at the target', () => {
  let xvnc: TestXvnc;
  beforeAll(async () => {
    xvnc = await startXvnc({ password: PASSWORD });
  }, 30_000);
  afterAll(() => xvnc?.stop());

  it('ends the bridge with the target-side error; the browser gets no more than the version line', async () => {
    const relay = await bastion(() => xvnc.port, 'wrong-pw');
    try {
      const b = await browser(relay.url);
      await b.bytes.read(12);
      b.send('RFB 003.008\n');
      const err = await failure(nth(relay.bridges, 0));
      expect(err).toMatchObject({ side: 'target', kind: 'auth' });
      await new Promise<void>((resolve) => (b.ws.readyState === WebSocket.CLOSED ? resolve() : b.ws.once('close', () => resolve())));
      // The version line, and possibly the offer of None: never anything of the target's.
      expect(b.bytes.all.subarray(0, 12).toString()).toBe('RFB 003.008\n');
      expect(b.bytes.all.length).toBeLessThanOrEqual(14);
      expect(relay.targets[0]?.destroyed).toBe(true);
    } finally {
      await relay.close();
    }
  });
});

describe('malformed browsers', () => {
  let target: FakeServer;
  let relay: Awaited<ReturnType<typeof bastion>>;
  beforeAll(async () => {
    // A None target that answers the handshake and then never sends its ServerInit.
    target = await fakeServer(async (s, got) => {
      s.write('RFB 003.008\n');
      await got.read(12);
      s.write(Buffer.of(1, 1));
      await got.read(1);
      s.write(u32(0));
    });
    relay = await bastion(() => target.port, '', 2000);
  });
  afterAll(async () => {
    await relay?.close();
    await target?.close();
  });
  let n = 0;
  afterEach(() => {
    n++;
  });

  it('a garbage version line: a browser-side protocol error, the target closed', async () => {
    const b = await browser(relay.url);
    await b.bytes.read(12);
    b.send('GET / HTTP/1.1\r\n');
    const err = await failure(nth(relay.bridges, n));
    expect(err).toMatchObject({ side: 'browser', kind: 'protocol', message: '浏览器的 VNC 客户端发送了无效的协议数据' });
    expect(relay.targets[n]?.destroyed).toBe(true);
  });

  it('choosing a type that was not offered', async () => {
    const b = await browser(relay.url);
    await b.bytes.read(12);
    b.send('RFB 003.008\n');
    await b.bytes.read(2);
    b.send(Buffer.of(2));
    expect(await failure(nth(relay.bridges, n))).toMatchObject({ side: 'browser', kind: 'protocol', detail: 'security type 2 chosen, only None (1) was offered' });
  });

  it('a text message', async () => {
    const b = await browser(relay.url);
    await b.bytes.read(12);
    b.ws.send('RFB 003.008\n');
    expect(await failure(nth(relay.bridges, n))).toMatchObject({ side: 'browser', kind: 'protocol' });
  });

  it('a flood in the handshake: bounded', async () => {
    const b = await browser(relay.url);
    await b.bytes.read(12);
    b.send(Buffer.concat([Buffer.from('RFB 003.008\n'), Buffer.alloc(1024 * 1024)]));
    expect(await failure(nth(relay.bridges, n))).toMatchObject({ side: 'browser', kind: 'protocol', detail: 'more than 65536 bytes during the handshake' });
  });

  it('a flood after the ClientInit while the target is slow: bounded, the wait for the target ended', async () => {
    const b = await browser(relay.url);
    await b.bytes.read(12);
    b.send(Buffer.concat([Buffer.from('RFB 003.008\n'), Buffer.of(1, 1)]));
    b.send(Buffer.alloc(1024 * 1024));
    expect(await failure(nth(relay.bridges, n))).toMatchObject({ side: 'browser', kind: 'protocol', detail: 'more than 65536 bytes during the handshake' });
    expect(relay.targets[n]?.destroyed).toBe(true);
  });

  it('a browser that leaves while the target is slow: its error, not a timeout', async () => {
    const b = await browser(relay.url);
    await b.bytes.read(12);
    b.send(Buffer.concat([Buffer.from('RFB 003.008\n'), Buffer.of(1, 1)]));
    await b.bytes.read(6);
    b.ws.terminate();
    expect(await failure(nth(relay.bridges, n))).toMatchObject({ side: 'browser', kind: 'closed' });
  });

  it('a stalled target ServerInit: the timeout, with the browser waiting', async () => {
    const b = await browser(relay.url);
    await b.bytes.read(12);
    b.send(Buffer.concat([Buffer.from('RFB 003.008\n'), Buffer.of(1, 1)]));
    expect(await failure(nth(relay.bridges, n))).toMatchObject({ side: 'target', kind: 'timeout' });
    expect(relay.targets[n]?.destroyed).toBe(true);
  });

  it('a browser that leaves in the middle', async () => {
    const b = await browser(relay.url);
    await b.bytes.read(12);
    b.ws.terminate();
    expect(await failure(nth(relay.bridges, n))).toMatchObject({ side: 'browser', kind: 'closed' });
  });
});

describe('the hand-off of the browser bytes (a channel in memory)', () => {
  function channel() {
    const sent: Buffer[] = [];
    let deliver: (chunk: Buffer) => void = () => {};
    const ch: BrowserChannel = {
      send: (data) => void sent.push(data),
      listen(onData) {
        deliver = onData;
        return () => {
          deliver = () => {};
        };
      },
    };
    return { ch, sent, from: (b: Buffer | string) => deliver(Buffer.from(b)) };
  }

  it('gives the relay what came after the ClientInit first, in the hand-off call, then the rest', async () => {
    const { ch, from } = channel();
    const serving = rfbServe(ch);
    from(Buffer.concat([Buffer.from('RFB 003.008\n'), Buffer.of(1, 0), Buffer.from('early')]));
    const served = await serving;
    expect(served.shared).toBe(false);
    from('later');
    const got: string[] = [];
    served.handOff(
      (chunk) => got.push(chunk.toString()),
      () => {},
    );
    expect(got).toEqual(['earlylater']);
    from('after');
    expect(got).toEqual(['earlylater', 'after']);
  });

  it('a flood between the bridge and the hand-off reaches the relay as its end', async () => {
    const { ch, from } = channel();
    const serving = rfbServe(ch);
    from(Buffer.concat([Buffer.from('RFB 003.008\n'), Buffer.of(1, 1)]));
    const served = await serving;
    from(Buffer.alloc(1024 * 1024));
    expect(served.failed()).toMatchObject({ side: 'browser', kind: 'protocol' });
    const ends: unknown[] = [];
    served.handOff(
      () => {},
      (error) => ends.push(error),
    );
    expect(ends).toHaveLength(1);
    expect(ends[0]).toBeInstanceOf(RfbError);
  });
});
