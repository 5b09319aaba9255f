// Benchmark-only preload (NODE_OPTIONS="--import <this file>", BENCH_LOOP_DIR=<folder>): measures how long this
// process's event loop was blocked. The first SIGUSR2 starts the window, the second writes the histogram of the
// window to <folder>/<pid>.json; with BENCH_CPU_PROF=<folder> it also writes a V8 CPU profile of the window there
// (<pid>.cpuprofile). Plain JavaScript: it is loaded before any TypeScript loader.
import fs from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

const dir = process.env.BENCH_LOOP_DIR;
const profDir = process.env.BENCH_CPU_PROF;
if (dir) {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const session = profDir ? new Session() : undefined;
  session?.connect();
  let open = false;
  let elu = performance.eventLoopUtilization();
  process.on('SIGUSR2', () => {
    if (!open) {
      h.reset();
      elu = performance.eventLoopUtilization();
      open = true;
      session?.post('Profiler.enable', () => session.post('Profiler.start'));
      return;
    }
    const ms = (ns) => ns / 1e6;
    // utilization: the share of the window the loop was not waiting for I/O (busy, blocked or not scheduled).
    const utilization = performance.eventLoopUtilization(elu).utilization;
    const out = { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), count: h.count, utilization };
    const write = () => fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(out));
    open = false;
    if (!session) return write();
    session.post('Profiler.stop', (err, result) => {
      if (!err) fs.writeFileSync(path.join(profDir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
      write();
    });
  });
}
