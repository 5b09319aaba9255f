// After `vite build`: sizes of the entry, each plugin chunk, the lazy core chunks and the login screen.
// Exits 1 when the login screen is over budget (issue 2: ≤ 150 KB gzip, JS + CSS; `npm test` checks it too,
// in check-chunks.ts). The login screen (scripts/manifest.ts, loginScreen) = everything the browser must fetch before the login page is shown: the entry and its static
// imports (with CSS), the current language's `core` and `login` locale chunks, and the login plugin's chunk with
// its static imports. Listed apart and not counted: the API transport (axios), which the client starts fetching
// at once, in parallel with the page, and which the first call (GET /branding, then POST /login) waits for; and
// chunks fetched only later (toast/confirm overlays after the first screen, the TOTP dialog on the second step).
// The total with the transport is printed too. For where the bytes come from: scripts/bundle-report.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import {
  dist,
  entryKey,
  filesOf as filesOfManifest,
  gzipSize,
  LOGIN_BUDGET_KB,
  loginScreen,
  type Manifest,
  pagesKey,
  pluginIds,
  readManifest,
  START_LANGUAGE,
  TRANSPORT,
} from './manifest';

interface Size {
  raw: number;
  gzip: number;
}

const manifest: Manifest = readManifest();
const sizes = new Map<string, Size>();
function size(file: string): Size {
  let s = sizes.get(file);
  if (!s) {
    s = { raw: readFileSync(join(dist, file)).length, gzip: gzipSize(file) };
    sizes.set(file, s);
  }
  return s;
}
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const row = (label: string, s: Size) => console.log(`${label.padEnd(58)} ${kb(s.raw).padStart(10)} raw ${kb(s.gzip).padStart(9)} gzip`);
const total = (files: Iterable<string>) => [...files].map(size).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });

const filesOf = (keys: string[]) => filesOfManifest(manifest, keys);
const without = (files: Set<string>, known: Set<string>) => [...files].filter((f) => !known.has(f));

const entry = entryKey(manifest);
const entryFiles = filesOf([entry]);
row(`entry ${manifest[entry]!.file}`, size(manifest[entry]!.file));
row(`entry + static imports + css (${entryFiles.size} files)`, total(entryFiles));

console.log('\nplugin chunks (own file; + what they add beyond the entry):');
const ids = pluginIds();
if (ids.length === 0) console.log('  (no plugins yet)');
for (const id of ids) {
  const key = pagesKey(manifest, id);
  if (!key) continue;
  row(`  ${id} ${manifest[key]!.file}`, size(manifest[key]!.file));
  row(`    with static imports beyond the entry`, total(without(filesOf([key]), entryFiles)));
}

console.log('\nlazy core chunks (+ static imports beyond the entry):');
for (const [key, chunk] of Object.entries(manifest)) {
  if (chunk.isDynamicEntry && key.startsWith('core/')) row(`  ${key}`, total(without(filesOf([key]), entryFiles)));
}
// Descriptors' icon loaders: one small chunk per icon module, fetched with a layout's menu.
const iconKeys = Object.keys(manifest).filter((k) => manifest[k]?.isDynamicEntry && k.includes('/@fluentui/react-icons/'));
if (iconKeys.length > 0) row(`  menu icons (${iconKeys.length} loaders, with a layout)`, total(without(filesOf(iconKeys), entryFiles)));

const { files: loginFiles, startLocales, loginKey } = loginScreen(manifest);
row(`${START_LANGUAGE} locale chunks of the login screen (${startLocales.length})`, total(filesOf(startLocales)));
const login = total(loginFiles);

console.log('\nfetched in parallel with the login screen, needed by its first API call (not counted):');
const transport = without(filesOf([TRANSPORT]), loginFiles);
row(`  ${TRANSPORT}`, total(transport));

console.log('\nfetched after the login screen is usable (not counted):');
const later = new Set<string>();
for (const key of [...(manifest[loginKey ?? '']?.dynamicImports ?? []), 'core/app/overlays.tsx']) {
  if (!manifest[key]) continue;
  const extra = without(filesOf([key]), loginFiles).filter((f) => !later.has(f));
  for (const f of extra) later.add(f);
  row(`  ${key}`, total(extra));
}

console.log('');
if (!loginKey) {
  // Until plugins/login exists: a login page with Field, Input, Checkbox, Button measured ~10-13 KB gzip on top.
  console.log('note: no login plugin in this build: the number below lacks its chunk (estimate +10-13 KB gzip).');
}
row(`login screen: entry + imports + css + locales${loginKey ? ' + login chunk' : ''} (${loginFiles.size} files)`, login);
row(`  with the API transport fetched in parallel (${loginFiles.size + transport.length} files)`, total([...loginFiles, ...transport]));
// What a browser that accepts brotli receives (the server sends the build's pre-compressed .br copies).
const brotli = (files: Iterable<string>) =>
  [...files].reduce((sum, file) => sum + brotliCompressSync(readFileSync(join(dist, file)), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length, 0);
console.log(`  brotli as served: ${kb(brotli(loginFiles))}; with the transport ${kb(brotli([...loginFiles, ...transport]))}`);
const ok = login.gzip <= LOGIN_BUDGET_KB * 1024;
console.log(`${ok ? '✓' : '✗'} login screen ${kb(login.gzip)} gzip, budget ${LOGIN_BUDGET_KB} KB${ok ? '' : ` (over by ${kb(login.gzip - LOGIN_BUDGET_KB * 1024)})`}`);
if (!ok) process.exitCode = 1;
