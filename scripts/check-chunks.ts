// After `vite build`: every plugin has its own on-demand chunk `static/plugin-<id>-*.js`, no plugin pages are in
// the entry chunk or its static imports, and the login screen is within its size budget (a size, not a timing:
// the same build gives the same bytes). Exit code 1 with a clear message otherwise. Details: bundle-size.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMPILE_HINT } from './compile-hints.ts';
import { gzipSync } from 'node:zlib';
import { BRANDING_MARKER, FIRST_SCREEN, type RoutePreloads, SERVER_RENDER } from '../shared/first-screen.ts';
import { LANGUAGES } from '../core/plugin/registry.ts';
import { dist, entryKey, gzipSize, isOnDemand, LOGIN_BUDGET_KB, loginScreen, pagesKey, pluginIds, readManifest, staticClosure } from './manifest';

/** index.html with its inlined stylesheet and the prerendered login page in every language (gzip). */
const INDEX_BUDGET_KB = 16;

const manifest = readManifest();
const entry = entryKey(manifest);
const closure = new Set(staticClosure(manifest, entry));
const problems: string[] = [];

for (const [key, chunk] of Object.entries(manifest)) {
  if (!chunk.file.startsWith('static/')) problems.push(`${key}: chunk ${chunk.file} is not under /static/`);
}

const ids = pluginIds();
for (const id of ids) {
  const key = pagesKey(manifest, id);
  if (!key) {
    problems.push(`plugin "${id}": no chunk for plugins/${id}/pages.ts(x) — is \`load: () => import('./pages')\` in its index.ts?`);
    continue;
  }
  const chunk = manifest[key]!;
  if (!isOnDemand(manifest, key)) problems.push(`plugin "${id}": ${key} is not a dynamic (on-demand) chunk`);
  if (!new RegExp(`^static/plugin-${id}-[^/]+\\.js$`).test(chunk.file)) {
    problems.push(`plugin "${id}": chunk is named ${chunk.file}, expected static/plugin-${id}-<hash>.js`);
  }
  if (closure.has(key)) problems.push(`plugin "${id}": its pages are statically reachable from the entry chunk`);
  for (const imported of staticClosure(manifest, key)) {
    const other = ids.find((o) => o !== id && pagesKey(manifest, o) === imported);
    if (other) problems.push(`plugin "${id}": its chunk statically imports plugin "${other}"'s pages`);
  }
}
// Any module under plugins/ other than a descriptor must not be bundled into the entry closure.
for (const key of closure) {
  if (/^plugins\/[^/]+\/(?!index\.ts$)/.test(key)) problems.push(`entry closure contains plugin module ${key}`);
}

// The code the on-demand pages share (core's UI kit, the Fluent components it uses) travels as one chunk
// (`pages-shared`, scripts/first-screen.ts), not some forty small ones a list page would queue for on HTTP/1.1;
// the login screen does not load it.
const loginFiles = loginScreen(manifest).files;
const pageRoots = [...ids.map((id) => pagesKey(manifest, id)), ...Object.keys(manifest).filter((key) => /^core\/layouts\/[A-Za-z]+Layout\.tsx$/.test(key))];
const reachedBy = new Map<string, number>();
for (const key of pageRoots) if (key) for (const reached of staticClosure(manifest, key)) reachedBy.set(reached, (reachedBy.get(reached) ?? 0) + 1);
const sharedFiles = [...reachedBy].filter(([key, count]) => count >= 2 && !loginFiles.has(manifest[key]!.file)).map(([key]) => manifest[key]!.file);
if (sharedFiles.length > 1) problems.push(`the pages share ${sharedFiles.length} chunks besides the login screen's, expected one (pages-shared): ${sharedFiles.join(', ')}`);
for (const file of loginFiles) if (/\/pages-shared-/.test(file)) problems.push(`the login screen loads ${file}`);

const login = [...loginFiles].reduce((sum, file) => sum + gzipSize(file), 0);
const loginKb = (login / 1024).toFixed(1);
if (login > LOGIN_BUDGET_KB * 1024) {
  problems.push(`the login screen is ${loginKb} KB gzip, over its ${LOGIN_BUDGET_KB} KB budget (\`npm run bench:bundle-report\` shows where the bytes come from)`);
}

// index.html carries the login page prerendered (scripts/prerender-first-screen.ts): every language, the boot, the
// place for the branding, and no linked stylesheet holding the first paint.
const html = readFileSync(join(dist, 'index.html'), 'utf8');
for (const lng of LANGUAGES) {
  const template = new RegExp(`<template id="${FIRST_SCREEN.templatePrefix}${lng}" data-path="/login" data-preload="([^"]*)">`).exec(html);
  if (!template) {
    problems.push(`index.html: no prerendered login page in ${lng}`);
    continue;
  }
  const preload = (template[1] ?? '').split(' ').filter(Boolean);
  if (!preload.some((href) => /^\/static\/plugin-login-/.test(href))) problems.push(`index.html: the ${lng} login page does not preload the login plugin's chunk`);
  for (const href of preload) {
    if (!existsSync(join(dist, href))) problems.push(`index.html: the ${lng} login page preloads ${href}, which is not in the build`);
  }
}
for (const [what, text] of [
  ['the boot script', `<script id="${FIRST_SCREEN.boot}">`],
  ['the branding marker', BRANDING_MARKER],
]) {
  if (!html.includes(text ?? '')) problems.push(`index.html: ${what} is missing`);
}
// The host names the entry and the app's chunks, which the boot starts (core/app/firstScreenBoot.ts): the page itself
// loads no script, so that none holds the static page back.
const host = new RegExp(`<div id="${FIRST_SCREEN.host}" data-entry="([^"]+)" data-preload="([^"]*)" data-routes="([^"]*)" hidden>`).exec(html);
if (!host) problems.push('index.html: the first screen host (the entry in data-entry, its chunks in data-preload, the route table in data-routes) is missing');
else {
  const entryFile = manifest[entryKey(manifest)]?.file;
  if (host[1] !== `/${entryFile}`) problems.push(`index.html: the host's data-entry ${host[1]} is not the entry chunk /${entryFile}`);
  const preload = (host[2] ?? '').split(' ').filter(Boolean);
  if (!preload.some((href) => /^\/static\/vendor-/.test(href))) problems.push("index.html: the host's data-preload misses the vendor chunk");
  for (const href of preload) if (!existsSync(join(dist, href))) problems.push(`index.html: the host preloads ${href}, which is not in the build`);
  // The route table (a signed-in visit's chunks by route): every file in the build, every route's plugin and layout in it.
  try {
    const table = JSON.parse((host[3] ?? '').replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as RoutePreloads;
    for (const href of table.files) if (!existsSync(join(dist, href))) problems.push(`index.html: the route table names ${href}, which is not in the build`);
    for (const [pattern, pluginId, layout] of table.routes) {
      if (!table.plugins[pluginId]?.length) problems.push(`index.html: the route table has no chunks for ${pattern}'s plugin "${pluginId}"`);
      if (layout !== 'bare' && !table.layouts[layout]?.length) problems.push(`index.html: the route table has no chunks for ${pattern}'s layout "${layout}"`);
    }
    for (const id of ids) if (!table.routes.some(([, pluginId]) => pluginId === id)) problems.push(`index.html: the route table has no route of plugin "${id}"`);
    if (!table.routes.some((route) => route[3] === 1)) problems.push('index.html: the route table marks no page the server draws first (a list page with `opensWith`)');
  } catch (error) {
    problems.push(`index.html: the host's route table is not JSON (${String(error)})`);
  }
}
if (/<script type="module"|<link rel="modulepreload"/.test(html)) problems.push('index.html loads a module itself: the boot starts them once the static page shows');
if (/<link rel="stylesheet"/.test(html)) problems.push('index.html links a stylesheet: it should be inlined (it holds the first paint)');
// Without an icon of its own every visit asks for /favicon.ico, which the build does not have: a 404 in every console.
const icon = html.match(/<link rel="icon"[^>]* href="([^"]+)"/)?.[1];
if (!icon || !existsSync(join(dist, icon))) problems.push(`index.html: its icon (${icon ?? 'none linked'}) is not in the build`);
const indexKb = (gzipSync(html, { level: 9 }).length / 1024).toFixed(1);
if (Number(indexKb) > INDEX_BUDGET_KB) problems.push(`index.html is ${indexKb} KB gzip, over its ${INDEX_BUDGET_KB} KB budget`);

// The server's render of a signed-in visit's first screen (core/app/serverFirstScreen.tsx), beside the console and
// outside what the server serves: one module for Node with its libraries inside.
const serverRender = join(dist, SERVER_RENDER.dir, SERVER_RENDER.file);
if (!existsSync(serverRender)) problems.push(`${SERVER_RENDER.dir}/${SERVER_RENDER.file}: the server's first-screen render is not in the build`);
else if (!/\bexport\s*\{[^}]*\brenderFirstScreen\b/.test(readFileSync(serverRender, 'utf8'))) problems.push(`${SERVER_RENDER.dir}/${SERVER_RENDER.file} exports no renderFirstScreen`);
else if (readdirSync(join(dist, SERVER_RENDER.dir)).length !== 1) problems.push(`${SERVER_RENDER.dir}/ holds more than its one module (the server loads only ${SERVER_RENDER.file})`);

// Every chunk carries V8's compile hint on its first line (scripts/compile-hints.ts), or V8 ignores it.
for (const { file } of Object.values(manifest)) {
  if (file.endsWith('.js') && !readFileSync(join(dist, file), 'utf8').startsWith(`${COMPILE_HINT}\n`)) {
    problems.push(`${file} does not start with the compile hint ${COMPILE_HINT}`);
  }
}

if (problems.length > 0) {
  console.error(`✗ chunk check failed (${problems.length}):`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
console.log(`✓ chunk check: ${ids.length} plugin(s), each in its own static/plugin-<id>-*.js chunk; entry closure holds no plugin pages.`);
console.log(`✓ the pages' shared code in one chunk (${sharedFiles.join(', ') || 'none'}), not on the login screen`);
console.log(`✓ login screen ${loginKb} KB gzip (budget ${LOGIN_BUDGET_KB} KB)`);
console.log('✓ every chunk starts with the compile hint');
console.log(`✓ the server's first-screen render: ${SERVER_RENDER.dir}/${SERVER_RENDER.file}`);
console.log(`✓ index.html ${indexKb} KB gzip with the prerendered login page in ${LANGUAGES.length} languages (budget ${INDEX_BUDGET_KB} KB)`);
