/**
 * Seek time of the session player (plugins/session-audit/components/playback) on a generated one-hour recording:
 * a prompt and a command with ~4 KB of coloured output every 5 s, plus a 20 MB `cat` burst at minute 30 and a few
 * resizes. Loads it (parse + keyframes through an off-screen xterm, as the page does), then seeks to 60 random
 * moments and to the last minute, with keyframes and, for contrast, without (a replay from the start).
 * The target is an off-screen xterm: the browser adds the rendering of one screen on top.
 * Run: npx tsx scripts/bench-playback-seek.ts
 */
import { createShadowTerminal } from '../core/replay/shadowTerminal.ts';
import { parseCast } from '../plugins/session-audit/components/playback/asciicast.ts';
import { buildKeyframes } from '../plugins/session-audit/components/playback/keyframes.ts';
import { Player } from '../plugins/session-audit/components/playback/player.ts';

const HOUR = 3600;

function oneHourCast(): string {
  const lines = [JSON.stringify({ version: 2, width: 120, height: 40, timestamp: 1_700_000_000 })];
  const push = (t: number, type: string, data: string) => lines.push(JSON.stringify([Number(t.toFixed(6)), type, data]));
  const listing = (n: number) =>
    Array.from({ length: 60 }, (_, i) => `-rw-r--r-- 1 root root ${(n * 7919 + i * 104729) % 99999} Nov 23 16:${String(i).padStart(2, '0')} \x1b[01;32mfile-${n}-${i}.log\x1b[0m\r\n`).join('');
  let n = 0;
  for (let t = 1; t < HOUR; t += 5) {
    n += 1;
    push(t, 'o', `\x1b[01;32mroot@host\x1b[0m:\x1b[01;34m~\x1b[0m# `);
    push(t + 0.8, 'o', `ls -la /var/log/app-${n}\r\n`);
    push(t + 0.9, 'o', listing(n));
    if (n % 150 === 0) push(t + 1, 'r', n % 300 === 0 ? '120x40' : '160x48');
    if (Math.abs(t - HOUR / 2) < 2.5) {
      // `cat big.log`: 20 MB over 10 s in 4 KB chunks
      const chunk = `${'0123456789abcdef'.repeat(16)}\r\n`.repeat(16);
      for (let i = 0; i < 5000; i++) push(t + 1 + i * 0.002, 'o', chunk.slice(0, 4096));
    }
  }
  return lines.join('\n');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
const ms = (x: number) => `${x.toFixed(1)} ms`;

const text = oneHourCast();
let t0 = performance.now();
const cast = parseCast(text);
const parseMs = performance.now() - t0;
const outputChars = cast.events.reduce((sum, e) => sum + (e.type === 'o' ? e.data.length : 0), 0);

t0 = performance.now();
const frames = await buildKeyframes(cast, createShadowTerminal);
const indexMs = performance.now() - t0;
const keyframeChars = frames.reduce((sum, f) => sum + f.screen.length, 0);

const term = await createShadowTerminal(cast.header.width, cast.header.height);
const player = new Player(cast, term);
player.setKeyframes(frames);
await player.start();

let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const timed = async (p: Player, at: number) => {
  const start = performance.now();
  await p.seek(at);
  return performance.now() - start;
};
const times: number[] = [];
for (let i = 0; i < 60; i++) times.push(await timed(player, random() * cast.duration));
times.sort((a, b) => a - b);
const lastMinute = await timed(player, cast.duration - 30);
const afterBurst = await timed(player, HOUR / 2 + 12);

const linearTerm = await createShadowTerminal(cast.header.width, cast.header.height);
const linear = new Player(cast, linearTerm);
const linearLast = await timed(linear, cast.duration - 30);

console.log(`recording: ${(text.length / 1e6).toFixed(1)} MB file, ${cast.events.length} events, ${(outputChars / 1e6).toFixed(1)} M chars of output, ${cast.duration.toFixed(0)} s`);
console.log(`load: parse ${ms(parseMs)}, keyframes ${ms(indexMs)} (${frames.length} keyframes, ${(keyframeChars / 1e6).toFixed(2)} M chars kept)`);
console.log(`seek with keyframes, 60 random targets: p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, max ${ms(times.at(-1) as number)}`);
console.log(`seek to the last minute: ${ms(lastMinute)} with keyframes, ${ms(linearLast)} replaying from the start; just after the 20 MB burst: ${ms(afterBurst)}`);
term.dispose();
linearTerm.dispose();
