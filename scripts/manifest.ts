// Shared by check-chunks.ts and bundle-size.ts: reads the Vite build manifest.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export const root = join(import.meta.dirname, '..');
export const dist = join(root, 'dist');

export function readManifest(): Manifest {
  const path = join(dist, '.vite', 'manifest.json');
  if (!existsSync(path)) {
    console.error(`✗ ${path} not found: run \`npx vite build\` first.`);
    process.exit(1);
  }
  return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
}

/** Plugin ids = folders under plugins/ holding an index.ts. */
export function pluginIds(): string[] {
  const dir = join(root, 'plugins');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'index.ts')))
    .map((d) => d.name)
    .sort();
}

/** The page's entry (index.html); the other inputs (scripts/first-screen.ts) are chunks it imports on demand. */
export function entryKey(manifest: Manifest): string {
  const key = manifest['index.html']?.isEntry ? 'index.html' : Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!key) {
    console.error('✗ the manifest has no entry chunk');
    process.exit(1);
  }
  return key;
}

/** Manifest keys statically reachable from `start` (itself included). */
export function staticClosure(manifest: Manifest, start: string): string[] {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) stack.push(next);
  }
  return [...seen];
}

/** Fetched on demand: a dynamic import somewhere, never part of the entry's static closure. */
export function isOnDemand(manifest: Manifest, key: string): boolean {
  if (manifest[key]?.isDynamicEntry) return true;
  return Object.values(manifest).some((chunk) => chunk.dynamicImports?.includes(key));
}

export function pagesKey(manifest: Manifest, id: string): string | undefined {
  return [`plugins/${id}/pages.tsx`, `plugins/${id}/pages.ts`].find((k) => manifest[k]);
}

/** Files (js + css) of the static closures of the given manifest keys, without duplicates. */
export function filesOf(manifest: Manifest, keys: string[]): Set<string> {
  const files = new Set<string>();
  for (const key of keys) {
    for (const k of staticClosure(manifest, key)) {
      const chunk = manifest[k];
      if (!chunk) continue;
      files.add(chunk.file);
      for (const css of chunk.css ?? []) files.add(css);
    }
  }
  return files;
}

/** Issue 2's budget for the login screen, JS + CSS, gzip. */
export const LOGIN_BUDGET_KB = 150;
export const LOGIN_PLUGIN = 'login';
export const START_LANGUAGE = 'zh-CN';
export const TRANSPORT = 'core/api/transport.ts';
/** The app chunk the entry imports at once (React, Fluent, core's providers): scripts/first-screen.ts. */
export const APP = 'core/app/main-app.tsx';

/**
 * What the browser fetches before the login page is shown: the entry and its static imports (with CSS), the app
 * chunk it imports at once and its static imports, the start language's `core` and `login` locale chunks, and
 * the login plugin's chunk with its static imports (all started together by core/app/early.ts). Not included:
 * the API transport, also started at once but not needed to show the page.
 */
export function loginScreen(manifest: Manifest): { files: Set<string>; startLocales: string[]; loginKey: string | undefined } {
  const startLocales = ['core', LOGIN_PLUGIN].map((ns) => `locales/${START_LANGUAGE}/${ns}.json`).filter((k) => manifest[k]);
  const loginKey = pagesKey(manifest, LOGIN_PLUGIN);
  return { files: filesOf(manifest, [entryKey(manifest), ...(manifest[APP] ? [APP] : []), ...startLocales, ...(loginKey ? [loginKey] : [])]), startLocales, loginKey };
}

export function gzipSize(file: string): number {
  return gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
}
