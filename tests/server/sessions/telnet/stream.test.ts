import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { pace } from '../../../../server/lib/pace.ts';
import { DO, DONT, IAC, MAX_SUBNEGOTIATION, OPT, SB, SE, TelnetStream, WILL, WONT } from '../../../../server/modules/sessions/telnet/stream.ts';
import { eventually } from '../helpers.ts';

/*
 * The Telnet negotiator (sessions/telnet/stream.ts) against a host played by the test over real loopback TCP: the
 * test writes the host's bytes (commands split where it likes) and reads what the stream answers.
 */

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

const LINEMODE = 34;

async function world(cols = 80, rows = 24) {
  const server = net.createServer();
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  const host = await accepted;
  const stream = new TelnetStream(socket, { cols, rows });
  cleanup.push(() => {
    stream.destroy();
    host.destroy();
    server.close();
  });
  let fromStream = Buffer.alloc(0);
  host.on('data', (d: Buffer) => {
    fromStream = Buffer.concat([fromStream, d]);
  });
  let read = Buffer.alloc(0);
  const reading = () =>
    stream.on('data', (d: Buffer) => {
      read = Buffer.concat([read, d]);
    });
  /** Writes one chunk as the host and waits until the stream's socket has read it (the next chunk is its own). */
  const hostSends = async (bytes: number[] | string) => {
    const before = socket.bytesRead;
    const data = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
    host.write(data);
    await eventually('the stream read the chunk', () => socket.bytesRead >= before + data.length);
  };
  return {
    host,
    socket,
    stream,
    hostSends,
    reading,
    read: () => read,
    got: () => fromStream,
    clearGot: () => {
      fromStream = Buffer.alloc(0);
    },
    /** Waits until the host received `bytes` (anywhere in what came). */
    hostGets: (bytes: number[]) => eventually(`the host to get ${bytes.join(' ')}`, () => fromStream.includes(Buffer.from(bytes))),
  };
}

/** How many times `needle` occurs in `hay`. */
function count(hay: Buffer, needle: number[]): number {
  const n = Buffer.from(needle);
  let c = 0;
  for (let at = hay.indexOf(n); at >= 0; at = hay.indexOf(n, at + 1)) c++;
  return c;
}

describe('TelnetStream', () => {
  it('takes commands out of the data even when an IAC sequence is split across chunks', async () => {
    const w = await world();
    w.reading();
    await w.hostSends([0x61, 0x62, IAC]);
    await w.hostSends([WILL]);
    await w.hostSends([OPT.ECHO, 0x63, 0x64, IAC, SB, OPT.TTYPE]);
    await w.hostSends([1, IAC]);
    await w.hostSends([SE, 0x65]);
    await eventually('abcde read', () => w.read().toString('latin1') === 'abcde');
    await w.hostGets([IAC, DO, OPT.ECHO]);
    expect(w.stream.his(OPT.ECHO)).toBe(true);
  });

  it('IAC IAC is a data byte 255 from the host, and a 255 from the user is sent doubled', async () => {
    const w = await world();
    w.reading();
    await w.hostSends([0x78, IAC]);
    await w.hostSends([IAC, 0x79]);
    await eventually('x ÿ y read', () => w.read().equals(Buffer.from([0x78, 0xff, 0x79])));
    w.stream.write(Buffer.from([0x41, 0xff, 0x42]));
    await w.hostGets([0x41, IAC, IAC, 0x42]);
  });

  it('answers a change of state once and never answers an answer (no loops)', async () => {
    const w = await world();
    w.stream.start();
    // Our requests, once each.
    await w.hostGets([IAC, WILL, OPT.TTYPE]);
    await w.hostGets([IAC, DO, OPT.ECHO]);
    const offered = w.got();
    expect(count(offered, [IAC, WILL, OPT.TTYPE])).toBe(1);
    expect(count(offered, [IAC, WILL, OPT.NAWS])).toBe(1);
    expect(count(offered, [IAC, DO, OPT.SGA])).toBe(1);
    w.clearGot();
    // The host agrees: its answers to our requests are not answered again.
    await w.hostSends([IAC, DO, OPT.TTYPE, IAC, WILL, OPT.ECHO, IAC, WILL, OPT.SGA, IAC, DO, OPT.SGA]);
    // Said again (a host that repeats itself): still nothing, the state did not change.
    await w.hostSends([IAC, DO, OPT.TTYPE, IAC, WILL, OPT.ECHO]);
    // Something we refuse, and a marker after it to know everything before was handled.
    await w.hostSends([IAC, DO, LINEMODE, IAC, WILL, 99]);
    await w.hostGets([IAC, DONT, 99]);
    const after = w.got();
    expect(count(after, [IAC, WILL, OPT.TTYPE])).toBe(0);
    expect(count(after, [IAC, DO, OPT.ECHO])).toBe(0);
    expect(count(after, [IAC, DO, OPT.SGA])).toBe(0);
    expect(count(after, [IAC, WILL, OPT.SGA])).toBe(0);
    expect(count(after, [IAC, WONT, LINEMODE])).toBe(1);
    expect(w.stream.ours(OPT.TTYPE) && w.stream.his(OPT.ECHO) && w.stream.ours(OPT.SGA)).toBe(true);
    expect(w.stream.ours(LINEMODE)).toBe(false);
    // The host turns ECHO off: acknowledged once; said twice, still once.
    w.clearGot();
    await w.hostSends([IAC, WONT, OPT.ECHO, IAC, WONT, OPT.ECHO, IAC, WILL, 98]);
    await w.hostGets([IAC, DONT, 98]);
    expect(count(w.got(), [IAC, DONT, OPT.ECHO])).toBe(1);
    expect(w.stream.his(OPT.ECHO)).toBe(false);
  });

  it('answers TTYPE SEND with xterm-256color (also split across chunks)', async () => {
    const w = await world();
    await w.hostSends([IAC, DO, OPT.TTYPE]);
    await w.hostGets([IAC, WILL, OPT.TTYPE]);
    await w.hostSends([IAC, SB, OPT.TTYPE]);
    await w.hostSends([1, IAC, SE]);
    await w.hostGets([IAC, SB, OPT.TTYPE, 0, ...Buffer.from('xterm-256color'), IAC, SE]);
  });

  it('sends the window size when NAWS is agreed and on every resize (255 doubled)', async () => {
    const w = await world(100, 30);
    await w.hostSends([IAC, DO, OPT.NAWS]);
    await w.hostGets([IAC, WILL, OPT.NAWS, IAC, SB, OPT.NAWS, 0, 100, 0, 30, IAC, SE]);
    w.stream.resize(255, 300);
    await w.hostGets([IAC, SB, OPT.NAWS, 0, IAC, IAC, 1, 44, IAC, SE]);
  });

  it('sends Enter as CR NUL, CR LF as is, and CR alone once our side is BINARY', async () => {
    const w = await world();
    w.stream.write('ls\r');
    await w.hostGets([0x6c, 0x73, 13, 0]);
    w.stream.write('a\r\nb');
    await w.hostGets([0x61, 13, 10, 0x62]);
    expect(count(w.got(), [13, 0, 10])).toBe(0);
    await w.hostSends([IAC, DO, OPT.BINARY]);
    await w.hostGets([IAC, WILL, OPT.BINARY]);
    expect(w.stream.ours(OPT.BINARY)).toBe(true);
    w.clearGot();
    w.stream.write('pwd\r');
    w.stream.write('!');
    await w.hostGets([0x21]);
    expect(w.got()).toEqual(Buffer.from('pwd\r!', 'latin1'));
  });

  it("reads the host's CR NUL as CR, even split across chunks, and keeps CR LF", async () => {
    const w = await world();
    w.reading();
    await w.hostSends([0x61, 13]);
    await w.hostSends([0, 0x62, 13, 10, 0x63]);
    await eventually('a CR b CR LF c', () => w.read().equals(Buffer.from([0x61, 13, 0x62, 13, 10, 0x63])));
  });

  it('drops subnegotiations of refused options, and bounds an endless one', async () => {
    const w = await world();
    w.reading();
    await w.hostSends([IAC, SB, 99, ...Buffer.alloc(MAX_SUBNEGOTIATION * 8, 7), IAC, SE, 0x6f]);
    // TTYPE SEND without our WILL TTYPE: nothing is answered.
    await w.hostSends([IAC, SB, OPT.TTYPE, 1, IAC, SE, 0x6b]);
    await eventually('ok read', () => w.read().toString('latin1') === 'ok');
    expect(w.got().length).toBe(0);
  });

  it('stops reading its socket while its reader is paused, through pace, and delivers all once resumed', async () => {
    const w = await world();
    w.stream.paceWith(pace(w.socket));
    let got = 0;
    w.stream.on('data', (d: Buffer) => {
      got += d.length;
    });
    w.stream.pause();
    const total = 4 * 1024 * 1024;
    w.host.write(Buffer.alloc(total, 0x61));
    await eventually('the socket held', () => w.socket.isPaused() && w.stream.readableLength >= w.stream.readableHighWaterMark);
    // Held: turns pass, pace's turn included, and the socket stays unread while the reader is paused.
    const readThen = w.socket.bytesRead;
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(w.socket.bytesRead).toBe(readThen);
    expect(readThen).toBeLessThan(total);
    expect(got).toBe(0);
    w.stream.resume();
    await eventually('everything delivered', () => got === total);
  });
});
