/** An asciicast v2 file from a header and events. */
export function castText(header: Record<string, unknown>, events: readonly (readonly [number, string, string])[]): string {
  return [JSON.stringify(header), ...events.map((e) => JSON.stringify(e))].join('\n');
}

/** A session of `seconds` seconds: a prompt, a command and its coloured output every `every` seconds, resizes now and then. */
export function generatedSession(seconds: number, every = 1): string {
  const events: [number, string, string][] = [];
  let n = 0;
  for (let t = 0.5; t < seconds; t += every) {
    n += 1;
    events.push([t, 'o', `\x1b[32muser@host\x1b[0m:~$ `]);
    events.push([t + 0.2, 'o', `echo step ${n}\r\n`]);
    events.push([t + 0.3, 'o', `\x1b[1mstep ${n}\x1b[0m ${'.'.repeat(n % 50)}\r\n`]);
    if (n % 97 === 0) events.push([t + 0.4, 'r', n % 2 === 0 ? '100x30' : '80x24']);
    if (n % 211 === 0) events.push([t + 0.45, 'o', '\x1b[2J\x1b[H']);
  }
  return castText({ version: 2, width: 80, height: 24, timestamp: 1_700_000_000 }, events);
}
