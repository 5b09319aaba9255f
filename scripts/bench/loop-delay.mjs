// Benchmark-only preload (NODE_OPTIONS="--import <this file>", BENCH_LOOP_DIR=<folder>): measures how long this
// process's event loop was blocked. The first SIGUSR2 starts the window, the second writes the histogram of the
// window to <folder>/<pid>.json. Plain JavaScript: it is loaded before any TypeScript loader.
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const dir = process.env.BENCH_LOOP_DIR;
if (dir) {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  let open = false;
  process.on('SIGUSR2', () => {
    if (!open) {
      h.reset();
      open = true;
      return;
    }
    const ms = (ns) => ns / 1e6;
    const out = { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), count: h.count };
    fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(out));
    open = false;
  });
}
