// Benchmark-only preload (NODE_OPTIONS="--import <this file>", BENCH_GC_DIR=<folder>): on SIGUSR2 this process runs a
// full garbage collection and writes its memory after it to <folder>/<pid>.json, so a benchmark can tell what a server
// holds from what it has not collected yet (scripts/bench-server.ts). Plain JavaScript: it is loaded before any
// TypeScript loader. Not with loop-delay.mjs in the same process: that one answers SIGUSR2 too.
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

const dir = process.env.BENCH_GC_DIR;
if (dir) {
  // gc() without starting node with --expose-gc (which NODE_OPTIONS does not take on every supported Node).
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  process.on('SIGUSR2', () => {
    const before = process.memoryUsage();
    // Twice: what the first one freed may hold the last references to more (weak maps, finalizers).
    gc();
    gc();
    // V8 gives the freed pages back a moment after the collection (its sweeper runs on other threads).
    setTimeout(() => {
      const after = process.memoryUsage();
      const mb = (n) => Math.round((n / 1024 / 1024) * 10) / 10;
      const view = (m) => ({ rss: mb(m.rss), heapUsed: mb(m.heapUsed), heapTotal: mb(m.heapTotal), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers) });
      fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify({ before: view(before), after: view(after) }));
    }, 1000);
  });
}
