// Vite build plugin: V8's explicit compile hint (Chrome 136+) as the first line of every chunk. V8 then compiles all
// of a chunk's functions eagerly, on a background thread while the file streams in, instead of lazily: each on the
// main thread at its first call. A chunk here is loaded when what it holds is about to run (the first screen's chunks
// at start, a page's chunk when the page opens), so most of its functions are called soon after it arrives.
// Browsers without the hint read a comment. Measured with `npm run bench:first-visit` (docs/PERFORMANCE.md).
import type { Plugin } from 'vite';

/** Counts only as a file's very first line. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

export function compileHints(): Plugin {
  return {
    name: 'jumpgate-compile-hints',
    apply: 'build',
    generateBundle: {
      // After Vite's own additions to the chunks' heads (the preload helper's dependency map).
      order: 'post',
      handler(_options, bundle) {
        for (const item of Object.values(bundle)) {
          if (item.type === 'chunk' && !item.code.startsWith(COMPILE_HINT)) item.code = `${COMPILE_HINT}\n${item.code}`;
        }
      },
    },
  };
}
