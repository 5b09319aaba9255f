import { describe, expect, it } from 'vitest';
import { parseCast } from '../../../plugins/session-audit/components/playback/asciicast';
import { advance, formatClock } from '../../../plugins/session-audit/components/playback/clock';
import { buildKeyframes, keyframeBefore } from '../../../plugins/session-audit/components/playback/keyframes';
import { Player } from '../../../plugins/session-audit/components/playback/player';
import { createShadowTerminal } from '@/core';
import { castText, generatedSession } from './cast';

describe('asciicast parser', () => {
  it('reads the header, output and resize events', () => {
    const cast = parseCast(castText({ version: 2, width: 120, height: 40, timestamp: 1700000000, env: { TERM: 'xterm-256color' } }, [
      [0.1, 'o', 'hello'],
      [0.5, 'r', '100x30'],
      [1.25, 'o', ' 中文\r\n'],
    ]));
    expect(cast.header).toEqual({ width: 120, height: 40, timestamp: 1700000000 });
    expect(cast.events).toEqual([
      { time: 0.1, type: 'o', data: 'hello' },
      { time: 0.5, type: 'r', data: '100x30' },
      { time: 1.25, type: 'o', data: ' 中文\r\n' },
    ]);
    expect(cast.skipped).toBe(0);
    expect(cast.duration).toBe(1.25);
  });

  it("takes 1.3.9's Timestamp, skips bad lines, ignores input and markers, holds times that run back", () => {
    const text = [
      '{"title":"","version":2,"height":32,"width":144,"env":{"SHELL":"/bin/bash"},"Timestamp":1650000000}',
      '[0.2, "o", "a"]',
      'not json',
      '[0.3, "o"]',
      '["x", "o", "b"]',
      '[-1, "o", "c"]',
      '[0.4, "o", 5]',
      '[0.5, "r", "wide"]',
      '[0.6, "i", "ls\\r"]',
      '[0.7, "m", ""]',
      '[0.65, "o", "d"]',
      '',
      '[0.9, "o", "e"', // a line cut by a crash
    ].join('\n');
    const cast = parseCast(text);
    expect(cast.header).toEqual({ width: 144, height: 32, timestamp: 1650000000 });
    expect(cast.events.map((e) => [e.time, e.data])).toEqual([
      [0.2, 'a'],
      [0.65, 'd'],
    ]);
    expect(cast.skipped).toBe(7);
  });

  it('survives a missing or broken header and an empty file', () => {
    expect(parseCast('[0.1, "o", "x"]\n[0.2, "o", "y"]')).toMatchObject({ header: { width: 80, height: 24 }, skipped: 1, duration: 0.2 });
    expect(parseCast('{"version":1}\n[0.1, "o", "x"]').events).toHaveLength(1);
    expect(parseCast('')).toEqual({ header: { width: 80, height: 24 }, events: [], skipped: 0, duration: 0 });
  });
});

describe('playback clock', () => {
  const times = [0, 1, 2, 30, 31];
  it('moves by real time × speed, never past the end', () => {
    expect(advance(times, 31, 0, 1000, { speed: 1 })).toBe(1);
    expect(advance(times, 31, 0, 1000, { speed: 0.5 })).toBe(0.5);
    expect(advance(times, 31, 1, 500, { speed: 4 })).toBe(3);
    expect(advance(times, 31, 30, 5000, { speed: 2 })).toBe(31);
  });

  it('skip idle cuts a long pause to maxIdle seconds and carries the rest on', () => {
    // 2 → 30 is a 28 s pause: with maxIdle 2, from 3 (1 s into it) 1.5 s more reach 4.0 = 2 + 2, then the jump.
    expect(advance(times, 31, 3, 1000, { speed: 1, maxIdle: 2 })).toBe(4);
    expect(advance(times, 31, 3, 1500, { speed: 1, maxIdle: 2 })).toBe(30.5);
    // A short pause is played as recorded.
    expect(advance(times, 31, 0, 800, { speed: 1, maxIdle: 2 })).toBeCloseTo(0.8);
    // Seeked into the middle of a long pause: the idle time is already used up.
    expect(advance(times, 31, 20, 100, { speed: 1, maxIdle: 2 })).toBeCloseTo(30.1);
  });

  it('formats positions', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(75.9)).toBe('1:15');
    expect(formatClock(3 * 3600 + 61)).toBe('3:01:01');
  });
});

/** The screen after replaying the whole recording up to `time` from the start, with no keyframes. */
async function linearScreen(text: string, time: number): Promise<string> {
  const cast = parseCast(text);
  const term = await createShadowTerminal(cast.header.width, cast.header.height);
  const player = new Player(cast, term);
  await player.seek(time);
  const screen = term.snapshot();
  const size = [term.cols, term.rows];
  term.dispose();
  return `${size.join('x')}\n${screen}`;
}

describe('keyframes and seek', () => {
  it('builds keyframes every N seconds, each holding exactly the events before its index', async () => {
    const cast = parseCast(generatedSession(120));
    const frames = await buildKeyframes(cast, createShadowTerminal, { everySeconds: 10 });
    expect(frames[0]).toMatchObject({ time: 0, index: 0, screen: '' });
    expect(frames.length).toBeGreaterThanOrEqual(11);
    expect(frames.length).toBeLessThanOrEqual(13);
    for (const f of frames.slice(1)) expect(cast.events[f.index - 1]!.time).toBeLessThanOrEqual(f.time);
    expect(keyframeBefore(frames, 0).index).toBe(0);
    expect(keyframeBefore(frames, 59.9).time).toBeLessThanOrEqual(59.9);
    expect(keyframeBefore(frames, 59.9).time).toBeGreaterThan(49);
    expect(keyframeBefore(frames, 1e9)).toBe(frames.at(-1));
  });

  it('a seek lands on the same screen as replaying from the start, across resizes and clears, backwards too', async () => {
    const text = generatedSession(500);
    const cast = parseCast(text);
    const term = await createShadowTerminal(80, 24);
    const sizes: string[] = [];
    const player = new Player(cast, term, (c, r) => sizes.push(`${c}x${r}`));
    player.setKeyframes(await buildKeyframes(cast, createShadowTerminal, { everySeconds: 7, everyChars: 2000 }));
    for (const target of [250.3, 97.45, 499, 3.2, 420.71]) {
      await player.seek(target);
      expect(`${term.cols}x${term.rows}\n${term.snapshot()}`, `at ${target}`).toBe(await linearScreen(text, target));
    }
    expect(sizes).toContain('100x30'); // an "r" event resized the terminal
    term.dispose();
  });

  it('steps write what was output meanwhile, at the chosen speed, and collapse quick seeks into the last', async () => {
    const text = castText({ version: 2, width: 20, height: 3 }, [
      [1, 'o', 'one '],
      [2, 'o', 'two '],
      [3, 'o', 'three'],
    ]);
    const cast = parseCast(text);
    const writes: string[] = [];
    const fake = {
      write: (data: string, callback?: () => void) => {
        if (data) writes.push(data);
        if (callback) queueMicrotask(callback);
      },
      reset: () => writes.push('<reset>'),
      resize: () => undefined,
    };
    const player = new Player(cast, fake);
    await player.start();
    player.step(1500, { speed: 1 });
    expect(writes).toEqual(['<reset>', 'one ']);
    player.step(500, { speed: 2 }); // 0.5 s real × 2 = 1 s → 2.5
    expect(player.position).toBe(2.5);
    expect(writes.at(-1)).toBe('two ');
    writes.length = 0;
    const seeks = [player.seek(0.5), player.seek(1.2), player.seek(2.1)];
    await Promise.all(seeks);
    expect(writes).toEqual(['<reset>', 'one two ']); // the first seek drew, the last one won: 0.5 and 1.2 were never drawn
    expect(player.position).toBe(2.1);
    player.step(5000, { speed: 1 });
    expect(player.ended).toBe(true);
  });
});
