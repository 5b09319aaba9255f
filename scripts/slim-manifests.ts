import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/*
 * The console build's copy of each plugins/<id>/manifest.ts without what only the server reads. In the browser the
 * manifests tell core, for a page key, its menu entry: group, order and `labelKey` (core/plugin/registry.ts,
 * resolve.ts; the label itself is a locale string, loaded with the locale files), and whether a key a descriptor
 * names (a page's `gate`, a child route's `menuKey`: an action key, often) is declared. The inline labels of action
 * keys (both languages), the routes each key grants, where the server finds the locale files (`locales`), the action
 * keys no descriptor names and every action's `parent` are read by the server only (GET /menus — the role editor's
 * tree — and the route gates); the console learns which keys a user holds from the user's `menus`. Every plugin's
 * manifest is in the entry chunk, so those bytes would otherwise ride along with the login screen (≈2.5 KB gzip with
 * eleven plugins for labels and grants, ≈0.5 KB more for the action keys), and grow with every plugin added.
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

/** The code without its comments (strings kept as they are). */
function withoutComments(code: string): string {
  let out = '';
  let i = 0;
  while (i < code.length) {
    const skipped = skipLiteral(code, i);
    if (skipped === i) out += code[i++];
    else {
      if (code[i] !== '/') out += code.slice(i, skipped);
      i = skipped;
    }
  }
  return out;
}

/** `actions: [ … ]` as the console needs it: the keys in `named` only, `{ key }` alone; nothing when none is named. */
function slimActions(array: string, named: ReadonlySet<string>): string {
  const keys = [...withoutComments(slimManifest(array.slice(1, -1), named)).matchAll(/(?<![\w$.])key\s*:\s*(['"`])([^'"`]*)\1/g)]
    .map((match) => match[2] ?? '')
    .filter((key) => named.has(key));
  return keys.length === 0 ? '' : `actions: [${keys.map((key) => `{ key: ${JSON.stringify(key)} }`).join(', ')}],`;
}

/**
 * The manifest source with every `label: {…}`, `grants: […]`, `locales: …` and `destructive: true` property (and its
 * comma) removed, and its `actions` cut to the keys in `named` (the keys the descriptors name), each as `{ key }`.
 */
export function slimManifest(code: string, named: ReadonlySet<string> = new Set()): string {
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
      const actions = word[0] === 'actions' && after?.[1] === '[';
      if ((DROPPED.has(word[0]) || actions) && !/[\w$.]/.test(prev) && after) {
        const open = i + word[0].length + after[0].length - 1;
        let end = matching(code, open);
        if (actions) out += slimActions(code.slice(open, end), named);
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

/** A descriptor's `gate: '…'` and `menuKey: '…'` values (pages and child routes). */
const NAMED_KEY = /(?<![\w$.])(?:gate|menuKey)\s*:\s*(['"`])([^'"`]+)\1/g;

/** The keys the descriptors (plugins/<id>/index.ts) under `pluginsDir` name, which the registry checks against the manifests. */
export function namedKeys(pluginsDir: string): Set<string> {
  const named = new Set<string>();
  for (const id of readdirSync(pluginsDir)) {
    const file = join(pluginsDir, id, 'index.ts');
    if (!existsSync(file)) continue;
    for (const match of withoutComments(readFileSync(file, 'utf8')).matchAll(NAMED_KEY)) named.add(match[2] ?? '');
  }
  return named;
}

/** Vite plugin (build only): slims the plugins' manifests in the console bundle. */
export function slimManifests(): Plugin {
  let named: Set<string> | null = null;
  return {
    name: 'jumpgate-slim-manifests',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      named = null;
    },
    transform(code, id) {
      if (!MANIFEST.test(id)) return undefined;
      // plugins/<id>/manifest.ts → plugins/
      named ??= namedKeys(dirname(dirname(id)));
      return { code: slimManifest(code, named), map: null };
    },
  };
}
