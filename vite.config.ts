/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));

// One lazy chunk per plugin, named after the plugin id: plugins/<id>/pages.ts(x) is the facade of that chunk.
const pluginPages = /\/plugins\/([a-z][a-z0-9-]*)\/pages\.tsx?$/;

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^@\/core\/testing$/, replacement: `${root}core/testing/index.ts` },
      { find: /^@\/core$/, replacement: `${root}core/index.ts` },
    ],
  },
  build: {
    outDir: 'dist',
    assetsDir: 'static',
    manifest: true,
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      // Core modules have no import-time side effects: a descriptor importing `definePlugin` from the
      // `@/core` barrel must not drag the whole barrel (UI kit, query…) into the entry chunk.
      treeshake: {
        moduleSideEffects: (id: string) => !(id.startsWith(`${root}core/`) && !id.endsWith('/core/main.tsx')),
      },
      output: {
        chunkFileNames: (chunk) => {
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
            'docs/examples/**/*.test.{ts,tsx}',
          ],
          setupFiles: ['tests/setup/console.ts'],
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
});
