// Builds the console and prints where the bytes of the login screen come from, by package.
// `npx tsx scripts/bundle-report.ts [--all] [--files] [--root DIR]`: --all also lists every other chunk's packages;
// --files lists the project's own code file by file instead of by folder;
// --root builds another checkout (e.g. a snapshot while the working tree is mid-change).
// Raw is each package's share of the minified chunk (by rendered length); gzip is its share of the
// chunk's real gzip size, weighted by how well its own code compresses. Estimates, but they add up.
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'vite';
import { resolve } from 'node:path';
import { root as repoRoot } from './manifest';

const rootArg = process.argv[process.argv.indexOf('--root') + 1];
const root = process.argv.includes('--root') && rootArg ? resolve(rootArg) : repoRoot;
const byFile = process.argv.includes('--files');

interface ChunkInfo {
  fileName: string;
  isEntry: boolean;
  facade: string | null;
  imports: string[];
  dynamicImports: string[];
  raw: number;
  gzip: number;
  /** package → rendered code */
  parts: Map<string, string>;
  css: string[];
}

/** node_modules/@scope/name → @scope/name; core/<dir>/… → core/<dir>; plugins/<id>/… → plugin <id>. */
function packageOf(id: string): string {
  const clean = id.replace(/\?.*$/, '');
  const nm = clean.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const [first, second] = clean.slice(nm + '/node_modules/'.length).split('/');
    return first?.startsWith('@') ? `${first}/${second}` : (first ?? clean);
  }
  if (clean.startsWith('\0') || !clean.startsWith('/')) return '(bundler runtime)';
  const rel = clean.startsWith(`${root}/`) ? clean.slice(root.length + 1) : clean;
  const [top, dir] = rel.split('/');
  if (byFile && (top === 'core' || top === 'plugins')) return rel;
  if (top === 'core') return dir && !dir.includes('.') ? `core/${dir}` : 'core';
  if (top === 'plugins') return `plugin ${dir}`;
  return top ?? rel;
}

const gz = (text: string | Uint8Array) => gzipSync(text, { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)}`;

function collect(): Plugin {
  return {
    name: 'jumpgate-bundle-report',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        const parts = new Map<string, string>();
        for (const [id, module] of Object.entries(item.modules)) {
          if (!module.code || module.renderedLength === 0) continue;
          const pkg = packageOf(id);
          parts.set(pkg, (parts.get(pkg) ?? '') + module.code);
        }
        chunks.set(item.fileName, {
          fileName: item.fileName,
          isEntry: item.isEntry,
          facade: item.facadeModuleId ?? null,
          imports: item.imports,
          dynamicImports: item.dynamicImports,
          raw: Buffer.byteLength(item.code),
          gzip: gz(item.code),
          parts,
          css: [...(item.viteMetadata?.importedCss ?? [])],
        });
      }
      for (const item of Object.values(bundle)) {
        if (item.type === 'asset' && item.fileName.endsWith('.css')) {
          const text = typeof item.source === 'string' ? item.source : new TextDecoder().decode(item.source);
          cssSizes.set(item.fileName, { raw: Buffer.byteLength(text), gzip: gz(text) });
        }
      }
    },
  };
}

const chunks = new Map<string, ChunkInfo>();
const cssSizes = new Map<string, { raw: number; gzip: number }>();

/** Per package {raw, gzip} of one chunk, scaled so the rows add up to the chunk's real sizes. */
function attribute(chunk: ChunkInfo): Map<string, { raw: number; gzip: number }> {
  const lengths = [...chunk.parts].map(([pkg, code]) => ({ pkg, len: code.length, gz: gz(code) }));
  const lenSum = lengths.reduce((a, b) => a + b.len, 0) || 1;
  const gzSum = lengths.reduce((a, b) => a + b.gz, 0) || 1;
  const out = new Map<string, { raw: number; gzip: number }>();
  for (const { pkg, len, gz: g } of lengths) out.set(pkg, { raw: (chunk.raw * len) / lenSum, gzip: (chunk.gzip * g) / gzSum });
  return out;
}

function closure(start: string[]): string[] {
  const seen = new Set<string>();
  const stack = [...start];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file) || !chunks.has(file)) continue;
    seen.add(file);
    stack.push(...chunks.get(file)!.imports);
  }
  return [...seen];
}

function table(title: string, files: string[]): void {
  const rows = new Map<string, { raw: number; gzip: number }>();
  const add = (pkg: string, s: { raw: number; gzip: number }) => {
    const row = rows.get(pkg) ?? { raw: 0, gzip: 0 };
    rows.set(pkg, { raw: row.raw + s.raw, gzip: row.gzip + s.gzip });
  };
  const css = new Set<string>();
  for (const file of files) {
    const chunk = chunks.get(file)!;
    for (const [pkg, s] of attribute(chunk)) add(pkg, s);
    for (const c of chunk.css) css.add(c);
  }
  for (const c of css) add('(css)', cssSizes.get(c) ?? { raw: 0, gzip: 0 });
  const total = [...rows.values()].reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
  console.log(`\n${title}`);
  console.log(`  files: ${files.map((f) => f.replace(/^static\//, '')).join(', ')}`);
  console.log(`  ${'package'.padEnd(34)} ${'raw KB'.padStart(8)} ${'gzip KB'.padStart(8)} ${'share'.padStart(6)}`);
  for (const [pkg, s] of [...rows].sort((a, b) => b[1].gzip - a[1].gzip)) {
    console.log(`  ${pkg.padEnd(34)} ${kb(s.raw).padStart(8)} ${kb(s.gzip).padStart(8)} ${`${((100 * s.gzip) / (total.gzip || 1)).toFixed(0)}%`.padStart(6)}`);
  }
  console.log(`  ${'total'.padEnd(34)} ${kb(total.raw).padStart(8)} ${kb(total.gzip).padStart(8)}`);
}

const started = performance.now();
await build({ root, logLevel: 'warn', plugins: [collect()] });
console.log(`build ${((performance.now() - started) / 1000).toFixed(1)} s`);

const entry = [...chunks.values()].find((c) => c.isEntry);
if (!entry) throw new Error('no entry chunk');
const entryClosure = closure([entry.fileName]);
table('entry + its static imports', entryClosure);

// What the login page downloads before it is usable (same rule as bundle-size.ts): entry closure, the current
// language's locale chunks and the login plugin's chunk with its static imports.
const isFacade = (c: ChunkInfo, re: RegExp) => c.facade !== null && re.test(c.facade);
const startLazy = [...chunks.values()].filter(
  (c) => isFacade(c, /\/locales\/zh-CN\/(core|login)\.json$/) || isFacade(c, /\/plugins\/login\/pages\.tsx?$/),
);
table('login screen (entry closure + zh-CN core/login locales + login plugin chunk)', closure([entry.fileName, ...startLazy.map((c) => c.fileName)]));

if (process.argv.includes('--all')) {
  for (const chunk of chunks.values()) {
    if (entryClosure.includes(chunk.fileName)) continue;
    table(`chunk ${chunk.fileName} (${chunk.facade ? packageOf(chunk.facade) : 'shared'})`, [chunk.fileName]);
  }
}
