// Vite build plugin: index.html carries the login page prerendered (issue 10: usable before any script has run).
// It renders core/app/prerender.tsx through Vite's SSR loader (the app's own components, locales and styles, one
// <template> per language), bundles the inline boot (core/app/firstScreenBoot.ts) and writes both into index.html with
// the page's stylesheet. The server fills in the branding and allows the boot by its hash (server/http/static.ts).
import { fileURLToPath } from 'node:url';
import { build, createServer, type IndexHtmlTransformContext, type Plugin } from 'vite';
import { BRANDING_MARKER, FIRST_SCREEN, HIDE_ROOT_RULE, type RoutePreloads, SERVER_RENDER } from '../shared/first-screen.ts';
import { MENU_ICONS_ID } from './menu-icons.ts';
import type { PrerenderedScreen } from '../core/app/prerender.tsx';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The login page of every language, rendered by the app's components through Vite's SSR module loader, and the
 * console's routes (from the same descriptors). */
async function prerender(): Promise<{ screens: PrerenderedScreen[]; routes: RoutePreloads['routes'] }> {
  const server = await createServer({
    root,
    configFile: `${root}vite.config.ts`,
    logLevel: 'warn',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    const module = (await server.ssrLoadModule('/core/app/prerender.tsx')) as typeof import('../core/app/prerender.tsx');
    return { screens: await module.prerenderFirstScreens(), routes: module.routeTable() };
  } finally {
    await server.close();
  }
}

/** The boot as one minified classic script (it runs inline, while the page parses). */
async function bootScript(): Promise<string> {
  const output = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    resolve: { alias: [] },
    build: {
      write: false,
      minify: true,
      emptyOutDir: false,
      lib: { entry: `${root}core/app/firstScreenBoot.entry.ts`, formats: ['iife'], name: 'jumpgateBoot' },
    },
  });
  const results = Array.isArray(output) ? output : [output];
  for (const result of results) {
    if (!('output' in result)) continue;
    const chunk = result.output.find((item) => item.type === 'chunk');
    if (chunk && chunk.type === 'chunk') return chunk.code.trim();
  }
  throw new Error('prerender-first-screen: the boot script did not build');
}

/** `</` inside inline CSS or script would end the element early. */
function inlineSafe(text: string): string {
  return text.replace(/<\/(style|script)/gi, '<\\/$1');
}

type Bundle = NonNullable<IndexHtmlTransformContext['bundle']>;

/**
 * The entry's stylesheet (Fluent's theme as CSS variables, scripts/theme-css.ts) written into index.html instead of
 * linked: a linked stylesheet holds the first paint and the inline boot until it arrives, and the static page needs it.
 */
function inlineStylesheets(html: string, bundle: Bundle | undefined): string {
  if (!bundle) return html;
  return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (tag, file: string) => {
    const asset = bundle[file];
    if (asset?.type !== 'asset') return tag;
    return `<style>${inlineSafe(String(asset.source))}</style>`;
  });
}

/**
 * The files of the chunks whose module matches one of `modules` (an id, the end of its path, or a pattern) with all
 * they import statically, less those `skip` says are fetched anyway. Throws when a module has no chunk.
 */
function chunkClosure(bundle: Bundle, modules: readonly (string | RegExp)[], skip: (file: string) => boolean): string[] {
  const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item] : []));
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const files: string[] = [];
  const visit = (file: string) => {
    if (files.includes(file) || skip(file)) return;
    files.push(file);
    for (const next of byFile.get(file)?.imports ?? []) visit(next);
  };
  for (const module of modules) {
    const matches = (id: string) => (typeof module === 'string' ? id === module || id.endsWith(module) : module.test(id));
    const chunk = chunks.find((c) => matches(c.facadeModuleId ?? ''));
    if (!chunk) throw new Error(`prerender-first-screen: no chunk for ${String(module)}`);
    visit(chunk.fileName);
  }
  return files.map((file) => `/${file}`);
}

/** A plugin's pages module (`plugins/<id>/pages.ts(x)`, the facade of its chunk). */
function pluginPagesModule(pluginId: string): RegExp {
  return new RegExp(`/plugins/${pluginId}/pages\\.tsx?$`);
}

/**
 * The chunks the app's own copy of a prerendered page needs beyond what index.html already preloads: the page's
 * plugin chunk and its imports, its locale files in that language, the API transport. The boot preloads them for an
 * anonymous visit (the one that shows this page), so the app takes the form over sooner; a signed-in visit skips them.
 */
function chunksOfScreen(screen: PrerenderedScreen, bundle: Bundle | undefined, html: string): string[] {
  if (!bundle) return [];
  const modules = [pluginPagesModule(screen.pluginId), ...screen.namespaces.map((ns) => `/locales/${screen.lng}/${ns}.json`), '/core/api/transport.ts'];
  return chunkClosure(bundle, modules, (file) => html.includes(`/${file}"`));
}

/** Where a layout's component lives (core/app/layouts.ts loads it): its chunk is the layout's. */
const LAYOUT_MODULES: Record<string, string> = { admin: '/core/layouts/AdminLayout.tsx', user: '/core/layouts/UserLayout.tsx' };

/** Text as a double-quoted attribute's value. */
function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/**
 * The boot's route table (RoutePreloads): for each route, the chunks its first screen loads at once — its plugin's
 * pages chunk, core's strings and the API transport, and under a layout the layout's chunk, the menu icons and the
 * language's locale bundle, each with what it imports — less what the host preloads anyway.
 */
function routePreloads(
  routes: RoutePreloads['routes'],
  languages: readonly string[],
  bundle: Bundle | undefined,
  preloaded: readonly string[],
): RoutePreloads {
  const table: RoutePreloads = { files: [], layouts: {}, start: {}, bundles: {}, plugins: {}, routes };
  if (!bundle) return table;
  const indexes = (modules: readonly (string | RegExp)[]): number[] =>
    chunkClosure(bundle, modules, (file) => preloaded.includes(`/${file}`)).map((href) => {
      if (!table.files.includes(href)) table.files.push(href);
      return table.files.indexOf(href);
    });
  for (const [layout, module] of Object.entries(LAYOUT_MODULES)) {
    table.layouts[layout] = indexes([module, `\0${MENU_ICONS_ID}`]);
  }
  for (const lng of languages) {
    table.start[lng] = indexes([`/locales/${lng}/core.json`, '/core/api/transport.ts']);
    table.bundles[lng] = indexes([`/core/i18n/bundles/${lng}.ts`]);
  }
  for (const pluginId of new Set(routes.map(([, id]) => id))) table.plugins[pluginId] = indexes([pluginPagesModule(pluginId)]);
  return table;
}

/**
 * The entry's module script and the app's module preloads leave the page: the boot starts them once the static page
 * shows (signed in: at once), from the host's `data-entry` and `data-preload`. Left in the page, the preload scanner
 * fetches them while the page still parses and their arrival and compiling hold the static page back (measured:
 * usable ≈ 25 ms later at 1×, docs/PERFORMANCE.md).
 */
function scriptsToBoot(html: string): { html: string; entry: string; preload: string[] } {
  const scripts = [...html.matchAll(/<script type="module"[^>]* src="([^"]+)"><\/script>/g)];
  const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]* href="([^"]+)">/g)];
  const entry = scripts[0]?.[1];
  if (!entry || scripts.length !== 1) throw new Error('prerender-first-screen: index.html needs exactly one entry module script');
  let out = html;
  for (const tag of [...scripts, ...preloads]) out = out.replace(tag[0], '');
  return { html: out, entry, preload: preloads.map((tag) => tag[1] ?? '') };
}

/**
 * The server's render of a signed-in visit's first screen (core/app/serverFirstScreen.tsx), built for Node beside the
 * console: `<outDir>/ssr/first-screen.js`, outside what the server serves (server/http/firstScreen.ts loads it).
 */
export async function buildServerRender(outDir: string): Promise<void> {
  // A production build whoever runs it: under a test runner (NODE_ENV=test) the React plugin would compile JSX for
  // React's development runtime, which the bundle (production React, vite.config.ts) does not have.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: `${root}vite.config.ts`,
      mode: 'production',
      logLevel: 'warn',
      build: {
        ssr: `${root}core/app/serverFirstScreen.tsx`,
        outDir: `${outDir}/${SERVER_RENDER.dir}`,
        rollupOptions: { output: { entryFileNames: SERVER_RENDER.file, codeSplitting: false } },
      },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

export function prerenderFirstScreen(): Plugin {
  let outDir = `${root}dist`;
  return {
    name: 'jumpgate-prerender-first-screen',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : `${config.root}/${config.build.outDir}`;
    },
    async closeBundle() {
      await buildServerRender(outDir);
    },
    transformIndexHtml: {
      order: 'post',
      async handler(source, ctx) {
        const inlined = inlineStylesheets(source, ctx.bundle);
        const { html, entry, preload } = scriptsToBoot(inlined);
        const [{ screens, routes }, boot] = await Promise.all([prerender(), bootScript()]);
        const css = screens[0]?.css ?? '';
        if (screens.some((screen) => screen.css !== css)) throw new Error('prerender-first-screen: the languages need different styles');
        // A checkbox's tick has no words: every language renders the same one (and its rules are in `css`).
        const checkmark = screens[0]?.checkmark;
        if (!checkmark) throw new Error('prerender-first-screen: nothing was prerendered');
        const layout = HIDE_ROOT_RULE;
        const templates = screens
          .map((screen) => {
            // Beside the app's own preloads (in `inlined`, not repeated).
            const screenPreload = chunksOfScreen(screen, ctx.bundle, inlined).join(' ');
            return `<template id="${FIRST_SCREEN.templatePrefix}${screen.lng}" data-path="${screen.path}" data-preload="${screenPreload}">${screen.html}</template>`;
          })
          .join('') + `<template id="${FIRST_SCREEN.checkmark}" data-class="${checkmark.rootClass}">${checkmark.tick}</template>`;
        const body =
          `<div id="${FIRST_SCREEN.host}" data-entry="${entry}" data-preload="${preload.join(' ')}" data-routes="${attribute(JSON.stringify(routePreloads(routes, screens.map((screen) => screen.lng), ctx.bundle, preload)))}" hidden></div>${templates}` +
          `${BRANDING_MARKER}<script id="${FIRST_SCREEN.boot}">${inlineSafe(boot)}</script>`;
        if (!html.includes('<div id="root">') || !html.includes('</head>')) throw new Error('prerender-first-screen: index.html needs <head> and <div id="root">');
        return html
          .replace('</head>', `<style id="${FIRST_SCREEN.style}">${inlineSafe(layout + css)}</style></head>`)
          .replace('<div id="root">', `${body}<div id="root">`);
      },
    },
  };
}
