/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';
import griffel from '@griffel/vite-plugin';
import { firstScreenGroups, firstScreenInputs, preloadAppChunk } from './scripts/first-screen.ts';
import { compileHints } from './scripts/compile-hints.ts';
import { foldTokensPlugin } from './scripts/fold-tokens.ts';
import { MENU_ICONS_ID, menuIcons } from './scripts/menu-icons.ts';
import { precompress } from './scripts/precompress.ts';
import { prerenderFirstScreen } from './scripts/prerender-first-screen.ts';
import { coreSideEffects } from './scripts/side-effects.ts';
import { slimManifests } from './scripts/slim-manifests.ts';
import { themeStylesheet } from './scripts/theme-css.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const firstScreen = firstScreenGroups(root);

// One lazy chunk per plugin, named after the plugin id: plugins/<id>/pages.ts(x) is the facade of that chunk.
const pluginPages = /\/plugins\/([a-z][a-z0-9-]*)\/pages\.tsx?$/;

/** Griffel's build-time compiler, run only on our files that declare styles (the rest would be parsed for nothing). */
function griffelAheadOfTime(): Plugin {
  const compiler = griffel({
    include: [new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(core|domain|plugins)/.*\\.tsx?$`)],
    babelOptions: { presets: ['@babel/preset-typescript', ['@babel/preset-react', { runtime: 'automatic' }]] },
  });
  const transform = compiler.transform;
  if (typeof transform !== 'function') throw new Error('@griffel/vite-plugin: unexpected transform hook shape');
  return {
    ...compiler,
    transform(code, id, options) {
      if (!/\bmake(?:Styles|ResetStyles|StaticStyles)\(/.test(code)) return undefined;
      return transform.call(this, code, id, options);
    },
  };
}

/** The plugins the server's render needs: the same code transforms as the console's, none of the client's output steps. */
function serverPlugins(): PluginOption[] {
  return [react(), themeStylesheet(), griffelAheadOfTime(), slimManifests(), menuIcons(root)];
}

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: isSsrBuild ? serverPlugins() : [
    react(),
    themeStylesheet(),
    // Production builds compile our makeStyles calls ahead of time, as Fluent ships its own: the Griffel runtime
    // that turns style objects into CSS (stylis, rtl-css-js, ~7 KB gzip) then stays out of the bundle.
    command === 'build' && griffelAheadOfTime(),
    // `tokens.<name>` folded to its string: the tokens object stays off the login screen (scripts/fold-tokens.ts).
    foldTokensPlugin(),
    // The manifests' labels and grants are the server's data: not shipped in the entry (scripts/slim-manifests.ts).
    slimManifests(),
    // The descriptors' menu icons from one generated module: one request for a layout's menu (scripts/menu-icons.ts).
    menuIcons(root),
    firstScreen.plugin,
    preloadAppChunk(),
    // index.html carries the login page prerendered, usable before any script runs (shared/first-screen.ts).
    prerenderFirstScreen(),
    // Every chunk compiled on a background thread as it arrives, not function by function on the main thread.
    compileHints(),
    precompress(),
  ],
  resolve: {
    alias: [
      { find: /^@\/core\/testing$/, replacement: `${root}core/testing/index.ts` },
      { find: /^@\/shared\/manifest$/, replacement: `${root}shared/manifest.ts` },
      { find: /^@\/shared\/protocols$/, replacement: `${root}shared/protocols.ts` },
      { find: /^@\/domain$/, replacement: `${root}domain/index.ts` },
      { find: /^@\/core$/, replacement: `${root}core/index.ts` },
    ],
  },
  // The server's render of a signed-in first screen (scripts/prerender-first-screen.ts builds it after the console):
  // one file for Node with its libraries inside, the same components and style hashes as the console's.
  ...(isSsrBuild && {
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    ssr: { noExternal: true },
  }),
  build: isSsrBuild ? { emptyOutDir: true, minify: false, copyPublicDir: false } : {
    outDir: 'dist',
    assetsDir: 'static',
    manifest: true,
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      input: { index: `${root}index.html`, ...firstScreenInputs(root) },
      // Core modules have no import-time side effects but for those scripts/side-effects.ts lists: a descriptor
      // importing `definePlugin` from the `@/core` barrel must not drag the whole barrel (UI kit, query…) into the entry.
      // Reading a property has no side effect either: the libraries leave reads whose value nobody uses (i18next's
      // re-exports of its instance's methods, Griffel's `shorthands`, Fluent's unused style constants reading `tokens.*`),
      // and each kept code alive that nothing runs: 1.7 KB gzip of the login screen's vendor chunk. No library here
      // reads a property for its effect (a layout flush `el.offsetHeight;`): the build's reads of offset*, client*,
      // scroll*, getBoundingClientRect and the storages are the same with this and without (docs/PERFORMANCE.md).
      treeshake: { moduleSideEffects: coreSideEffects(root), propertyReadSideEffects: false },
      output: {
        // The libraries the first screen loads travel as one `vendor` chunk instead of a dozen small shared ones:
        // one request, and gzip sees them together. `$initial` = imported by an input (see firstScreenInputs).
        codeSplitting: {
          groups: [
            { name: 'vendor', tags: ['$initial'], test: /node_modules/ },
            { name: 'early', test: firstScreen.early },
            { name: 'app-core', test: firstScreen.appCore },
            // A layout page's first visit: the code the pages and layouts share as one chunk instead of some forty
            // (scripts/first-screen.ts); what the login screen runs stays out of it.
            { name: 'login-shared', tags: ['$initial'], test: firstScreen.loginShared },
            { name: 'pages-shared', test: firstScreen.pagesShared, minShareCount: 2 },
          ],
        },
        chunkFileNames: (chunk) => {
          if (chunk.facadeModuleId === `\0${MENU_ICONS_ID}`) return 'static/menu-icons-[hash].js';
          const match = chunk.facadeModuleId?.match(pluginPages);
          return match ? `static/plugin-${match[1]}-[hash].js` : 'static/[name]-[hash].js';
        },
      },
    },
  },
  test: {
    // .ci/run reads the JSON report to print its `ci: N passed, M failed` line.
    reporters: process.env.JUMPGATE_REPORT_DIR ? ['default', 'json'] : ['default'],
    outputFile: process.env.JUMPGATE_REPORT_DIR ? { json: `${process.env.JUMPGATE_REPORT_DIR}/unit.json` } : undefined,
    projects: [
      {
        extends: true,
        test: {
          name: 'console',
          environment: 'jsdom',
          include: [
            'tests/core/**/*.test.{ts,tsx}',
            'tests/plugins/**/*.test.{ts,tsx}',
            'tests/meta/**/*.test.ts',
          ],
          setupFiles: ['tests/setup/console.ts'],
          // A hang guard, not a speed bound: jsdom renders of whole pages took over vitest's 5 s default when the
          // suite shares two cores (CI's machine), and one such timeout used to cost the run.
          testTimeout: 20000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          setupFiles: ['tests/setup/server.ts'],
          testTimeout: 20000,
          hookTimeout: 30000,
        },
      },
    ],
  },
}));
