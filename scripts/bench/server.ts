import { type ChildProcessByStdio, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A real server started by a benchmark: the CLI (`tsx server/main.ts`) on a fresh data folder and a loopback port. */
export interface BenchServer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The tsx launcher; the server runs in a node child of it. */
  child: ChildProcessByStdio<null, Readable, null>;
  dataDir: string;
  /** Ends the server and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Starts the server with `password` for the seeded admin; `env` adds or overrides variables; `checkout` runs another
 * checkout's server (a before/after comparison in one run; default: this one).
 */
export async function startBenchServer(password: string, env: NodeJS.ProcessEnv = {}, checkout = root): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-bench-'));
  const child = spawn(path.join(checkout, 'node_modules', '.bin', 'tsx'), ['server/main.ts', '--addr', '127.0.0.1:0', '--data', dataDir], {
    cwd: checkout,
    env: { ...process.env, JUMPGATE_ADMIN_PASSWORD: password, JUMPGATE_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(base)) throw new Error(`not a loopback address: ${base}`);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { base, child, dataDir, stop };
}

/** The p-th percentile (nearest rank) of ascending `sorted`. */
export const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
