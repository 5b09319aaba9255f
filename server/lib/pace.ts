import type { Readable } from 'node:stream';

/*
 * Fair reading of the sockets that carry sessions (issue 30 §1). Node reads a ready socket until it is empty, up to
 * 32 × 64 KiB in one go, and everything read is decrypted, decoded, recorded and sent on within the same event-loop
 * turn: ten sessions streaming `cat bigfile` made turns of a second, and every keystroke's echo and every API request
 * waited behind them (echo p99 945 ms, `GET /branding` p99 9.6 s).
 *
 * A paced socket gets TURN_BUDGET bytes per turn. Past it, it is held: paused (Node then stops reading it at the next
 * chunk: the kernel buffer and TCP flow control hold the rest) and resumed in a later turn's check phase, TURN_STREAMS
 * held sockets per turn, round-robin in the order they were held: each streaming session a share of a bounded turn. A
 * session that types never reaches its budget, so its few bytes go through in the turn they arrive: interactive bytes
 * never wait behind bulk.
 *
 * Pace and the consumer share the stream's flow through the handle pace returns: a consumer that back-pressures (the
 * Telnet relay's stream, paused by the terminal) holds and releases the socket with `hold()` / `release()` instead of
 * pausing it, and the socket is resumed only when neither pace nor the consumer holds it. A consumer that never pauses
 * the socket itself (an SSH connection's socket under ssh2, which back-pressures per channel) ignores the handle. Call
 * it once the consumer reads (`data` listener attached).
 */

/** Bytes a paced socket may deliver per event-loop turn: one of Node's 64 KiB reads. */
export const TURN_BUDGET = 64 * 1024;

/**
 * Held sockets resumed per turn, first held first: a turn's bulk work stays near TURN_STREAMS × TURN_BUDGET however
 * many sessions stream (each gets its turn in order), so the event loop comes back to keystrokes and requests every
 * few milliseconds. Measured against resuming all of them each turn: docs/PERFORMANCE.md "Interactive under load".
 */
export const TURN_STREAMS = 4;

/** A paced stream's two holds: pace's (its budget spent this turn) and its consumer's (back-pressure). */
interface Entry {
  readonly stream: Readable;
  paced: boolean;
  consumer: boolean;
}

/** The consumer's side of a paced stream's flow. */
export interface PaceHandle {
  /** Stops reading the stream (the consumer's buffer is full) until `release`. */
  hold(): void;
  /** The consumer takes more: the stream is read again unless pace holds it, which resumes it in its turn. */
  release(): void;
}

const held: Entry[] = [];
/** Bumped once per turn in which a paced socket delivered or waits: budgets are per turn. */
let turn = 0;
let ticking = false;

const tick = (): void => {
  if (ticking) return;
  ticking = true;
  setImmediate(nextTurn);
};

const nextTurn = (): void => {
  ticking = false;
  turn++;
  for (const entry of held.splice(0, TURN_STREAMS)) {
    entry.paced = false;
    if (!entry.consumer && !entry.stream.destroyed) entry.stream.resume();
  }
  if (held.length > 0) tick();
};

export function pace(stream: Readable, budget = TURN_BUDGET): PaceHandle {
  const entry: Entry = { stream, paced: false, consumer: false };
  let used = 0;
  let seen = -1;
  stream.on('data', (chunk: Buffer | string) => {
    if (seen !== turn) {
      seen = turn;
      used = 0;
    }
    used += chunk.length;
    tick();
    if (used >= budget && !entry.paced && !stream.isPaused()) {
      entry.paced = true;
      stream.pause();
      held.push(entry);
    }
  });
  return {
    hold: () => {
      entry.consumer = true;
      stream.pause();
    },
    release: () => {
      if (!entry.consumer) return;
      entry.consumer = false;
      if (!entry.paced && !stream.destroyed) stream.resume();
    },
  };
}
