/*
 * A pattern an administrator writes on an asset (the Telnet login prompts, contract §3.4 telnet attributes) as a JS
 * RegExp. The 1.3.9 console shows them in the Go / Java form, whose inline flags lead the expression: a leading
 * `(?i)` (or `(?m)`, `(?s)`, combined) becomes the RegExp's flags. Anything else must be a valid JS expression. The
 * asset routes refuse what this cannot read; the Telnet relay reads the stored value with it again (a value stored
 * before, or by an import, falls back to the default there).
 */
export function parsePattern(source: string | undefined): RegExp | undefined {
  if (!source?.trim()) return undefined;
  let body = source;
  let flags = '';
  const inline = /^\(\?([a-z]+)\)/.exec(body);
  if (inline) {
    const wanted = inline[1] as string;
    if (![...wanted].every((f) => f === 'i' || f === 'm' || f === 's')) return undefined;
    flags = [...new Set(wanted)].join('');
    body = body.slice(inline[0].length);
  }
  try {
    return new RegExp(body, flags);
  } catch {
    return undefined;
  }
}
