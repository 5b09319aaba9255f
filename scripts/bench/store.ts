import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Config, loadConfig } from '../../server/config.ts';
import { type Db, openStore } from '../../server/db/index.ts';
import { seed } from '../../server/seed.ts';
import type { SecretBox } from '../../server/lib/secret-box.ts';
import { loadCatalogue, type ServerCatalogue } from '../../server/permissions/catalogue.ts';

export const BENCH_ADMIN_PASSWORD = 'bench-password';

export interface BenchStore {
  dataDir: string;
  config: Config;
  db: Db;
  box: SecretBox;
  catalogue: ServerCatalogue;
}

/** What every server benchmark starts from: a fresh temporary data folder, its database migrated and seeded. */
export async function benchStore(name: string, now = Date.now()): Promise<BenchStore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `jumpgate-bench-${name}-`));
  const config = { ...loadConfig(['--data', dataDir, '--addr', '127.0.0.1:0'], {}), adminPassword: BENCH_ADMIN_PASSWORD };
  const { db, box } = await openStore(config);
  const catalogue = await loadCatalogue();
  await seed(db, { catalogue, adminPassword: BENCH_ADMIN_PASSWORD, now });
  return { dataDir, config, db, box, catalogue };
}

/** A deterministic pseudo-random sequence (mulberry32): the same data every run. `rand(n)` is in [0, n). */
export function seededRandom(seedValue: number): (n: number) => number {
  let state = seedValue;
  return (n) => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) % n;
  };
}
