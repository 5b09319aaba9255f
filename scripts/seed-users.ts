/**
 * Seeds N plain users into a data folder, fast: one transaction, batched inserts, one bcrypt hash shared by all.
 * Run: npx tsx scripts/seed-users.ts [--data ./data] [--count 10000] [--prefix user]
 * Every seeded user's password is `seed-password`.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { type Db, openStore } from '../server/db/index.ts';
import type { NewUser } from '../server/db/schema.ts';
import { seed } from '../server/seed.ts';
import { loadCatalogue } from '../server/permissions/catalogue.ts';
import { uuid } from '../server/lib/ids.ts';
import { hashPassword } from '../server/lib/password.ts';

export const SEED_PASSWORD = 'seed-password';
// 11 columns × 500 rows stays far below SQLite's bound-variable limit.
const BATCH = 500;

/** Inserts `count` users named `<prefix>00001`…; returns how long it took in ms. */
export async function seedUsers(db: Db, count: number, opts: { prefix?: string; now?: number } = {}): Promise<number> {
  const started = performance.now();
  const { prefix = 'user', now = Date.now() } = opts;
  const password = await hashPassword(SEED_PASSWORD); // once: bcrypt costs ~50 ms per hash
  const width = String(count).length;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += BATCH) {
      const rows: NewUser[] = [];
      for (let i = start; i < Math.min(count, start + BATCH); i++) {
        const n = String(i + 1).padStart(width, '0');
        rows.push({
          id: uuid(),
          username: `${prefix}${n}`,
          usernameKey: `${prefix}${n}`.toLowerCase(),
          password,
          nickname: `用户 ${n}`,
          totpSecret: '-',
          online: i % 7 === 0 ? 1 : 0,
          status: i % 13 === 0 ? 'disabled' : 'enabled',
          type: 'user',
          mail: `${prefix}${n}@example.com`,
          source: '',
          created: now - (count - i) * 1000, // distinct, oldest first
        });
      }
      await trx.insertInto('users').values(rows).execute();
    }
  });
  return performance.now() - started;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { data: { type: 'string' }, count: { type: 'string', default: '10000' }, prefix: { type: 'string', default: 'user' } } });
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1) throw new Error('--count: expected a positive integer');
  const config = loadConfig(values.data ? ['--data', values.data] : [], process.env);
  const { db } = await openStore(config);
  const seeded = await seed(db, { catalogue: await loadCatalogue(), adminPassword: config.adminPassword, now: Date.now() });
  if (seeded.generatedAdminPassword) console.log(`created the administrator account — username: admin  password: ${seeded.generatedAdminPassword}`);
  const ms = await seedUsers(db, count, { prefix: values.prefix });
  console.log(`seeded ${count} users (${values.prefix}…, password ${SEED_PASSWORD}) into ${config.database} in ${ms.toFixed(0)} ms`);
  await db.destroy();
}
