/**
 * `npm start`: builds the console with vite when dist/index.html is missing or older than its sources,
 * then starts the server in this process (same flags and environment as server/main.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../server/main.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
// Everything the build reads: sources, config, its plugins (scripts/precompress.ts, scripts/theme-css.ts), locked deps.
const SOURCES = ['shared', 'core', 'domain', 'plugins', 'locales', 'index.html', 'vite.config.ts', 'scripts/precompress.ts', 'scripts/theme-css.ts', 'scripts/slim-manifests.ts', 'scripts/first-screen.ts', 'scripts/prerender-first-screen.ts', 'package-lock.json'];

function newestMtime(p: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file shows only as a newer directory mtime
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

function buildConsoleIfNeeded(): void {
  const built = path.join(root, 'dist', 'index.html');
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
  const sourcesAt = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    console.warn('jumpgate: no console sources (index.html) to build; starting the API only.');
    return;
  }
  if (builtAt >= sourcesAt) return;
  console.log(builtAt ? 'jumpgate: console sources changed, rebuilding…' : 'jumpgate: building the console…');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const res = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) {
    console.error('jumpgate: the console build failed (see above).');
    process.exit(res.status ?? 1);
  }
}

buildConsoleIfNeeded();
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
