// Shared by check-chunks.ts and bundle-size.ts: reads the Vite build manifest.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

export function entryKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
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

export function pagesKey(manifest: Manifest, id: string): string | undefined {
  return [`plugins/${id}/pages.tsx`, `plugins/${id}/pages.ts`].find((k) => manifest[k]);
}
