import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writesOf } from '../../../server/db/index.ts';
import { startSshd, type TestSshd } from '../sshd.ts';
import { eventually, type TermClient, terminalWorld } from './helpers.ts';

/*
 * Issue 28 rule 5: resize frames are coalesced (the last one per interval) and rate-limited, with one row write and
 * one recording event per real change. Counts are asserted, never times: 20 000 frames made 20 000 row writes and
 * 20 000 `r` events before.
 */

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startSshd();
});
afterAll(() => sshd?.stop());

const frame = (cols: number, rows: number) => `3${Buffer.from(JSON.stringify({ cols, rows })).toString('base64')}`;

/** Every frame sent before the `4` ping has been read once its pong is back (frames are read in order). */
async function allRead(term: TermClient): Promise<void> {
  const pongs = term.frames.filter((f) => f === '4').length;
  term.ws.send('4');
  await term.until('the pong', () => term.frames.filter((f) => f === '4').length > pongs);
}

/** The `r` events of a recording file. */
const resizeEvents = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((line) => JSON.parse(line) as [number, string, string])
    .filter((e) => e[1] === 'r')
    .map((e) => e[2]);

describe('resize frames', () => {
  it('a flood of 20 000 frames makes a few row writes and recording events, each a real change, the last size kept', async () => {
    const w = await terminalWorld(sshd);
    const { id, term } = await w.terminal();
    const writes = () => writesOf(w.h.db).version(['sessions']);
    const before = writes();

    // 20 000 frames, alternating two sizes, the last one another.
    for (let i = 0; i < 19_999; i++) term.ws.send(i % 2 === 0 ? frame(100, 30) : frame(101, 31));
    term.ws.send(frame(90, 25));
    await allRead(term);
    await eventually('the last size stored', async () => (await w.row(id)).width === 90);
    expect(await w.row(id)).toMatchObject({ width: 90, height: 25 });
    const flooded = writes() - before;
    expect(flooded).toBeGreaterThanOrEqual(1);
    expect(flooded).toBeLessThanOrEqual(50);

    // The same size again, 20 000 times: nothing at all.
    const settled = writes();
    for (let i = 0; i < 20_000; i++) term.ws.send(frame(90, 25));
    await allRead(term);
    await new Promise((r) => setTimeout(r, 300)); // past a few intervals: a pending apply would have run
    expect(writes() - settled).toBe(0);

    // The shell sees the size.
    const from = term.output.length;
    term.type('stty size\r');
    await term.waitOutput('25 90', from);

    const { recording } = await w.row(id);
    await term.close();
    await eventually('the row disconnected', async () => (await w.row(id)).status === 'disconnected');
    const events = resizeEvents(recording);
    // One recording event per row write, each a change from the one before, the last the final size.
    expect(events.length).toBe(flooded);
    expect(events.at(-1)).toBe('90x25');
    let previous = '120x40';
    for (const e of events) {
      expect(e).not.toBe(previous);
      previous = e;
    }
  });

  it('a resize to the current size is no change: no row write, no recording event', async () => {
    const w = await terminalWorld(sshd);
    const { id, term } = await w.terminal();
    const before = writesOf(w.h.db).version(['sessions']);
    term.ws.send(frame(120, 40));
    await allRead(term);
    await new Promise((r) => setTimeout(r, 300));
    expect(writesOf(w.h.db).version(['sessions']) - before).toBe(0);
    const { recording } = await w.row(id);
    await term.close();
    await eventually('the row disconnected', async () => (await w.row(id)).status === 'disconnected');
    expect(resizeEvents(recording)).toEqual([]);
  });
});
