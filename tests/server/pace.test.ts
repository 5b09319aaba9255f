import { createHash } from 'node:crypto';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { pace, TURN_BUDGET, TURN_STREAMS } from '../../server/lib/pace.ts';

/*
 * lib/pace.ts on real loopback TCP sockets: a paced socket delivers a bounded share per event-loop turn, all of it,
 * in order; one that carries a few bytes at a time is never held.
 */

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

/** A connected pair: `writer` (server side) → `reader` (client side). */
async function pair(): Promise<{ writer: net.Socket; reader: net.Socket }> {
  const server = net.createServer();
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const reader = net.connect(port, '127.0.0.1');
  const writer = await accepted;
  cleanup.push(() => {
    reader.destroy();
    writer.destroy();
    server.close();
  });
  return { writer, reader };
}

/** The current event-loop turn's number (turns told apart by a setImmediate chain) until `stop`. */
function turns(): { now(): number; stop(): void } {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    now: () => turn,
    stop: () => {
      running = false;
    },
  };
}

/** Counts the bytes `reader` delivers in each event-loop turn. */
function perTurn(reader: net.Socket, total: number): Promise<{ max: number; digest: string }> {
  const turn = turns();
  const counts = new Map<number, number>();
  const hash = createHash('sha256');
  let got = 0;
  return new Promise((resolve) => {
    reader.on('data', (chunk: Buffer) => {
      counts.set(turn.now(), (counts.get(turn.now()) ?? 0) + chunk.length);
      hash.update(chunk);
      got += chunk.length;
      if (got >= total) {
        turn.stop();
        resolve({ max: Math.max(...counts.values()), digest: hash.digest('hex') });
      }
    });
  });
}

const payload = (bytes: number) => Buffer.from(Array.from({ length: bytes }, (_, i) => (i * 7 + (i >> 13)) & 0xff));

describe('pace', () => {
  const SIZE = 8 * 1024 * 1024;

  it('without pacing, a fast socket delivers far more than a budget in one turn (what pacing fixes)', async () => {
    const { writer, reader } = await pair();
    const counted = perTurn(reader, SIZE);
    // Node reads until the socket is empty: some turn takes more than a paced socket ever may (the next test's bound).
    writer.write(payload(SIZE));
    const { max } = await counted;
    expect(max).toBeGreaterThan(TURN_BUDGET + 64 * 1024);
  });

  it('a paced socket delivers at most its budget (plus the chunk that crossed it) per turn, everything, in order', async () => {
    const { writer, reader } = await pair();
    const data = payload(SIZE);
    const counted = perTurn(reader, SIZE);
    pace(reader);
    writer.write(data);
    const { max, digest } = await counted;
    expect(max).toBeLessThan(TURN_BUDGET + 64 * 1024);
    expect(digest).toBe(createHash('sha256').update(data).digest('hex'));
  });

  it('however many sockets stream, a turn carries about TURN_STREAMS budgets, and each socket gets its share', async () => {
    const n = 3 * TURN_STREAMS;
    const each = 2 * 1024 * 1024;
    const pairs = await Promise.all(Array.from({ length: n }, () => pair()));
    const turn = turns();
    const perTurn = new Map<number, number>();
    /** Turns in which each socket delivered: fair sharing spreads them out, none finishes long before the others. */
    const lastTurn: number[] = [];
    const done = pairs.map(
      ({ reader }, i) =>
        new Promise<void>((resolve) => {
          let got = 0;
          pace(reader);
          reader.on('data', (chunk: Buffer) => {
            perTurn.set(turn.now(), (perTurn.get(turn.now()) ?? 0) + chunk.length);
            got += chunk.length;
            if (got >= each) {
              lastTurn[i] = turn.now();
              resolve();
            }
          });
        }),
    );
    for (const { writer } of pairs) writer.write(payload(each));
    await Promise.all(done);
    turn.stop();
    // The first turns see every socket once before any is held; from then on the bound holds.
    const steady = [...perTurn.entries()].filter(([t]) => t > 3).map(([, bytes]) => bytes);
    expect(Math.max(...steady)).toBeLessThanOrEqual(TURN_STREAMS * (TURN_BUDGET + 64 * 1024));
    const first = Math.min(...lastTurn);
    const last = Math.max(...lastTurn);
    expect(first).toBeGreaterThan(last / 2); // round-robin: all finish near the end, none starved
  });

  it('a socket carrying a few bytes at a time is never held while another streams', async () => {
    const bulk = await pair();
    const keys = await pair();
    const counted = perTurn(bulk.reader, SIZE);
    pace(bulk.reader);
    pace(keys.reader);
    let heldWhileTyping = 0;
    let echoed = 0;
    keys.reader.on('data', (chunk: Buffer) => {
      echoed += chunk.length;
      if (keys.reader.isPaused()) heldWhileTyping++;
    });
    bulk.writer.write(payload(SIZE));
    const typing = setInterval(() => keys.writer.write('k'), 1);
    await counted;
    clearInterval(typing);
    expect(echoed).toBeGreaterThan(0);
    expect(heldWhileTyping).toBe(0);
    expect(keys.reader.isPaused()).toBe(false);
  });

  it('a paced socket destroyed while held is not resumed and ends cleanly', async () => {
    const { writer, reader } = await pair();
    pace(reader, 1024);
    const closed = new Promise<void>((resolve) => reader.once('close', () => resolve()));
    let firstChunk = true;
    reader.on('data', () => {
      if (firstChunk) {
        firstChunk = false;
        expect(reader.isPaused()).toBe(true); // past a 1 KiB budget at once: held
        reader.destroy();
      }
    });
    writer.write(payload(256 * 1024));
    await closed;
    expect(reader.destroyed).toBe(true);
  });

  it("composes with a consumer's hold: the socket is read only when neither pace nor the consumer holds it", async () => {
    const { writer, reader } = await pair();
    const data = payload(512 * 1024);
    const hash = createHash('sha256');
    let got = 0;
    let deliveredWhileHeld = 0;
    let consumerHolds = false;
    let releasedWhilePaced = false;
    // The consumer's listener first (as the Telnet stream's): it holds after its first chunk.
    const done = new Promise<void>((resolve) => {
      reader.on('data', (chunk: Buffer) => {
        if (consumerHolds) deliveredWhileHeld += chunk.length;
        hash.update(chunk);
        got += chunk.length;
        if (got >= data.length) resolve();
      });
    });
    const handle = pace(reader, 1);
    // Past a 1-byte budget pace holds it; the consumer holds too, and a release by the consumer alone must not resume it.
    reader.once('data', () => {
      expect(reader.isPaused()).toBe(true);
      handle.hold();
      consumerHolds = true;
      handle.release();
      releasedWhilePaced = !reader.isPaused();
      handle.hold();
    });
    writer.write(data);
    // Many turns pass: pace's turn comes and goes, the consumer's hold keeps the socket unread.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(releasedWhilePaced).toBe(false);
    expect(reader.isPaused()).toBe(true);
    expect(deliveredWhileHeld).toBe(0);
    consumerHolds = false;
    handle.release();
    await done;
    expect(hash.digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
  });
});
