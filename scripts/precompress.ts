// Vite build plugin: writes `.br` and `.gz` beside every built asset under static/, so the server sends the
// smallest encoding the browser accepts without compressing per request (server/http/static.ts, preCompressed).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const COMPRESSIBLE = /\.(js|mjs|css|json|svg|html|txt|wasm)$/;
/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 1024;

export function precompress(): Plugin {
  let staticDir = '';
  return {
    name: 'jumpgate-precompress',
    apply: 'build',
    configResolved(config) {
      staticDir = resolve(config.root, config.build.outDir, config.build.assetsDir);
    },
    async closeBundle() {
      let names: string[];
      try {
        names = await readdir(staticDir);
      } catch {
        return; // nothing emitted under static/
      }
      await Promise.all(
        names
          .filter((name) => COMPRESSIBLE.test(name))
          .map(async (name) => {
            const path = join(staticDir, name);
            const bytes = await readFile(path);
            if (bytes.length < MIN_BYTES) return;
            const [br, gzipped] = await Promise.all([
              brotli(bytes, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
                },
              }),
              gz(bytes, { level: 9 }),
            ]);
            await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gzipped)]);
          }),
      );
    },
  };
}
