// After `vite build`: sizes of the entry, each plugin chunk and the login screen (budget ≤ 150 KB gzip).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { dist, entryKey, type Manifest, pagesKey, pluginIds, readManifest, staticClosure } from './manifest';

const LOGIN_BUDGET_KB = 150;
const LOGIN_PLUGIN = 'login';

const manifest: Manifest = readManifest();
const size = (file: string) => {
  const bytes = readFileSync(join(dist, file));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const row = (label: string, s: { raw: number; gzip: number }) => console.log(`${label.padEnd(44)} ${kb(s.raw).padStart(10)} raw ${kb(s.gzip).padStart(10)} gzip`);

/** Files (js + css) of the static closures of the given keys, without duplicates. */
function filesOf(keys: string[]): string[] {
  const files = new Set<string>();
  for (const key of keys) {
    for (const k of staticClosure(manifest, key)) {
      const chunk = manifest[k];
      if (!chunk) continue;
      files.add(chunk.file);
      for (const css of chunk.css ?? []) files.add(css);
    }
  }
  return [...files];
}
const total = (files: string[]) => files.map(size).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });

const entry = entryKey(manifest);
row(`entry ${manifest[entry]!.file}`, size(manifest[entry]!.file));
const entryFiles = filesOf([entry]);
row(`entry + static imports (${entryFiles.length} files)`, total(entryFiles));

console.log('\nplugin chunks:');
const ids = pluginIds();
if (ids.length === 0) console.log('  (no plugins yet)');
for (const id of ids) {
  const key = pagesKey(manifest, id);
  if (key) row(`  ${id} (${manifest[key]!.file})`, size(manifest[key]!.file));
}

console.log('\nlazy core chunks:');
for (const [key, chunk] of Object.entries(manifest)) {
  if (chunk.isDynamicEntry && !key.startsWith('plugins/')) row(`  ${key}`, total(filesOf([key]).filter((f) => !entryFiles.includes(f))));
}

const loginKey = pagesKey(manifest, LOGIN_PLUGIN);
// The start also fetches every zh-CN locale file (one small chunk per namespace): they count too.
const startLocales = Object.keys(manifest).filter((k) => k.startsWith('locales/zh-CN/'));
const locales = total(startLocales.map((k) => manifest[k]!.file));
row(`zh-CN locale chunks loaded at start (${startLocales.length})`, locales);
const loginFiles = filesOf([entry, ...startLocales, ...(loginKey ? [loginKey] : [])]);
const login = total(loginFiles);
console.log('');
row(`login screen${loginKey ? '' : ' (no login plugin yet)'}: entry+imports+locales`, login);
const ok = login.gzip <= LOGIN_BUDGET_KB * 1024;
console.log(`${ok ? '✓' : '✗'} login screen ${kb(login.gzip)} gzip, budget ${LOGIN_BUDGET_KB} KB`);
if (!ok) process.exitCode = 1;
