import type { Readable } from 'node:stream';

/*
 * Fair reading of the sockets that carry sessions (issue 30 §1). Node reads a ready socket until it is empty, up to
 * 32 × 64 KiB in one go, and everything read is decrypted, decoded, recorded and sent on within the same event-loop
 * turn: ten sessions streaming `cat bigfile` made turns of a second, and every keystroke's echo and every API request
 * waited behind them (echo p99 945 ms, `GET /branding` p99 9.6 s).
 *
 * A paced socket gets TURN_BUDGET bytes per turn. Past it, it is paused (Node then stops reading it at the next
 * chunk: the kernel buffer and TCP flow control hold the rest) and resumed in the next turn's check phase, with every
 * other socket that hit its budget: round-robin in arrival order, each streaming session a share of a bounded turn. A
 * session that types gets its few bytes through in every turn: interactive bytes never wait behind bulk.
 *
 * Owns the stream's flow: pace only a stream whose consumer never pauses it itself (an SSH connection's socket under
 * ssh2, which back-pressures per channel). Call it once the consumer reads (`data` listener attached).
 */

/** Bytes a paced socket may deliver per event-loop turn: one of Node's 64 KiB reads. */
export const TURN_BUDGET = 64 * 1024;

const held: Readable[] = [];
/** Bumped once per turn in which a paced socket delivered: budgets are per turn. */
let turn = 0;
let ticking = false;

const nextTurn = (): void => {
  ticking = false;
  turn++;
  const resume = held.splice(0);
  for (const stream of resume) if (!stream.destroyed) stream.resume();
};

export function pace(stream: Readable, budget = TURN_BUDGET): void {
  let used = 0;
  let seen = -1;
  stream.on('data', (chunk: Buffer | string) => {
    if (seen !== turn) {
      seen = turn;
      used = 0;
    }
    used += chunk.length;
    if (!ticking) {
      ticking = true;
      setImmediate(nextTurn);
    }
    if (used >= budget && !stream.isPaused()) {
      stream.pause();
      held.push(stream);
    }
  });
}
