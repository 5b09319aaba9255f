import type { Plugin } from 'vite';

/*
 * The console build's copy of each plugins/<id>/manifest.ts without what only the server reads. In the browser the
 * manifests tell core which keys a plugin declares and, for a page key, its menu entry: group, order and `labelKey`
 * (core/plugin/registry.ts, resolve.ts; the label itself is a locale string, loaded with the locale files). The
 * inline labels of action keys (both languages), the routes each key grants and where the server finds the locale
 * files (`locales`) are read by the server only (GET /menus — the role editor's tree — and the route gates). Every
 * plugin's manifest is in the entry chunk, so those bytes would otherwise ride along with the login screen
 * (≈2.5 KB gzip with eleven plugins).
 */

const MANIFEST = /\/plugins\/[a-z][a-z0-9-]*\/manifest\.ts$/;
const DROPPED = new Set(['label', 'grants', 'locales']);
/**
 * Scalars only the server reads: `destructive` (no built-in role holds the key; the role editor has it from GET
 * /menus) and `locales: import.meta.url` (the server reads the locale files from there).
 */
const DROPPED_SCALARS = new Set(['destructive', 'locales']);
const SCALAR = /^\s*:\s*(?:true|false|\d+|import\.meta\.url)\b\s*,?/;

/** Index just past the string or comment starting at `i`, or `i` when none starts there. */
function skipLiteral(code: string, i: number): number {
  const c = code[i];
  if (c === "'" || c === '"' || c === '`') {
    let j = i + 1;
    while (j < code.length && code[j] !== c) j += code[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  if (c === '/' && code[i + 1] === '/') {
    const end = code.indexOf('\n', i);
    return end === -1 ? code.length : end;
  }
  if (c === '/' && code[i + 1] === '*') {
    const end = code.indexOf('*/', i + 2);
    return end === -1 ? code.length : end + 2;
  }
  return i;
}

/** Index just past the bracket matching the one at `open` (strings and comments skipped). */
function matching(code: string, open: number): number {
  let depth = 0;
  let i = open;
  while (i < code.length) {
    const skipped = skipLiteral(code, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = code[i];
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  throw new Error('slim-manifests: unbalanced brackets');
}

/** The manifest source with every `label: {…}`, `grants: […]`, `locales: …` and `destructive: true` property (and its comma) removed. */
export function slimManifest(code: string): string {
  let out = '';
  let i = 0;
  while (i < code.length) {
    const skipped = skipLiteral(code, i);
    if (skipped !== i) {
      out += code.slice(i, skipped);
      i = skipped;
      continue;
    }
    const word = /^[A-Za-z_$][\w$]*/.exec(code.slice(i, i + 64));
    if (word) {
      const prev = code[i - 1] ?? '';
      const flag = DROPPED_SCALARS.has(word[0]) && !/[\w$.]/.test(prev) && SCALAR.exec(code.slice(i + word[0].length, i + word[0].length + 32));
      if (flag) {
        i += word[0].length + flag[0].length;
        continue;
      }
      const after = /^\s*:\s*([{[])/.exec(code.slice(i + word[0].length, i + word[0].length + 32));
      if (DROPPED.has(word[0]) && !/[\w$.]/.test(prev) && after) {
        const open = i + word[0].length + after[0].length - 1;
        let end = matching(code, open);
        const comma = /^\s*,/.exec(code.slice(end));
        if (comma) end += comma[0].length;
        i = end;
        continue;
      }
      out += word[0];
      i += word[0].length;
      continue;
    }
    out += code[i];
    i++;
  }
  return out;
}

/** Vite plugin (build only): slims the plugins' manifests in the console bundle. */
export function slimManifests(): Plugin {
  return {
    name: 'jumpgate-slim-manifests',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      return MANIFEST.test(id) ? { code: slimManifest(code), map: null } : undefined;
    },
  };
}
