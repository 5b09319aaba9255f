// Build-time shaping of the first screen (vite.config.ts): few, larger chunks on the first visit's path, and the
// app chunk preloaded by index.html so it downloads while the entry's early start (core/app/early.ts) runs.
// Measured with `npm run bench:first-visit`; the login screen's size budget stays in check-chunks.ts.
import type { Plugin } from 'vite';
import { LOGIN_PLUGIN } from './manifest.ts';

/** The entry (early start + descriptors, no library) and the app chunk it imports at once (React, Fluent, core). */
export const ENTRY_MODULE = 'core/main.tsx';
export const APP_MODULE = 'core/app/main-app.tsx';

/**
 * Rollup inputs beside index.html: the modules a first visit executes at once (the app chunk, and the login page,
 * the screen most first visits show). As inputs their static imports carry rolldown's `$initial` tag, so the
 * `vendor` group gathers the libraries they use (React, Fluent with the login form's controls, the router,
 * i18next…) into one chunk instead of some twenty small shared ones. They stay on-demand chunks: the entry imports
 * the app dynamically, the login plugin's descriptor its pages (check-chunks.ts keeps `plugin-<id>` chunks).
 */
export function firstScreenInputs(root: string): Record<string, string> {
  return { app: `${root}${APP_MODULE}`, [`plugin-${LOGIN_PLUGIN}`]: `${root}plugins/${LOGIN_PLUGIN}/pages.tsx` };
}

/** index.html preloads the app chunk and its static imports: they download while the entry runs. */
export function preloadAppChunk(): Plugin {
  return {
    name: 'jumpgate-preload-app-chunk',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item] : []));
        const app = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(`/${APP_MODULE}`));
        if (!app) return html;
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const files: string[] = [];
        const visit = (file: string) => {
          if (files.includes(file) || html.includes(`/${file}"`)) return;
          files.push(file);
          for (const next of byFile.get(file)?.imports ?? []) visit(next);
        };
        visit(app.fileName);
        return {
          html,
          tags: files.map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const })),
        };
      },
    },
  };
}

/**
 * Our own modules a first visit runs at once, as two chunks instead of some ten small shared ones (fewer requests on
 * HTTP/1.1's six connections): `early` = what the entry reaches statically (early start, descriptors, landing rule),
 * `app-core` = what the app chunk reaches statically besides that.
 *
 * A layout page's first visit (a list page opened directly) gets the same treatment, and the login screen keeps its
 * bytes: what it runs at once carries rolldown's `$initial` tag and is taken by the groups before `pages-shared`.
 * - `login-shared`: our modules the login page runs at once besides its own (`$initial`: the language switch, the
 *   landing rule's hook), one chunk instead of two.
 * - `pages-shared` (vite.config.ts, `minShareCount: 2`): what two or more on-demand chunks use after tree-shaking —
 *   core's UI kit and the Fluent components it uses, shared by the layouts and the plugins' pages — one chunk
 *   instead of some forty small ones. What one plugin alone uses stays in its chunk (the dashboard's charts).
 * Not grouped: menu icons and locale files. Each is a dynamic import of its own (a descriptor's `icon`, a namespace),
 * and rolldown keeps a small facade chunk per dynamically imported module even when a group holds the module, so
 * grouping them saves no request (measured: docs/PERFORMANCE.md, "List page, session 6").
 * `plugin` records the import graph as modules are parsed; the tests (codeSplitting group tests, run at chunking,
 * after parsing) read it. Libraries the first screen runs stay in `vendor`; the walk does not go through the
 * `@/core` barrel (descriptors import only `definePlugin` from it).
 */
export function firstScreenGroups(root: string): {
  plugin: Plugin;
  early: (id: string) => boolean;
  appCore: (id: string) => boolean;
  /** With the `$initial` tag: our modules the login page runs at once, not its own. */
  loginShared: (id: string) => boolean;
  /** With `minShareCount: 2`. */
  pagesShared: (id: string) => boolean;
} {
  const imports = new Map<string, readonly string[]>();
  const barrel = `${root}core/index.ts`;
  const ours = (id: string) => id !== barrel && !id.includes('/node_modules/') && !id.endsWith('.css');
  const reach = (from: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [...(imports.get(from) ?? [])];
    for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
      if (seen.has(id)) continue;
      seen.add(id);
      if (id !== barrel) stack.push(...(imports.get(id) ?? []));
    }
    return seen;
  };
  let closures: { early: Set<string>; app: Set<string> } | null = null;
  const get = () => {
    closures ??= { early: reach(`${root}${ENTRY_MODULE}`), app: reach(`${root}${APP_MODULE}`) };
    return closures;
  };
  return {
    plugin: {
      name: 'jumpgate-first-screen-groups',
      apply: 'build',
      buildStart() {
        imports.clear();
        closures = null;
      },
      moduleParsed(info) {
        imports.set(info.id, info.importedIds);
      },
    },
    early: (id) => ours(id) && get().early.has(id),
    appCore: (id) => ours(id) && !get().early.has(id) && get().app.has(id),
    loginShared: (id) => ours(id) && id.startsWith(`${root}core/`) && id !== `${root}${ENTRY_MODULE}` && id !== `${root}${APP_MODULE}`,
    // Locale files stay one chunk each: the login screen loads its two, a layout all of them.
    pagesShared: (id) => !id.endsWith('.css') && !id.endsWith('.json'),
  };
}
