import { pathToFileURL } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openStore } from './db/index.ts';
import { seed } from './seed.ts';
import { SecretBoxError } from './lib/secret-box.ts';
import { loadCatalogue } from './permissions/catalogue.ts';

/** The whole stop's bound (the sessions' own deadline is 5 s, then 1 s for sockets to answer the close). */
const STOP_HARD_DEADLINE_MS = 8000;

/** Starts Jumpgate: config from flags and environment, database migrated and seeded, then listen. */
export async function main(argv = process.argv.slice(2), env = process.env): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log('usage: tsx server/main.ts [--addr host:port] [--data folder]   (environment: see docs/SERVER.md)');
    return;
  }
  const config = loadConfig(argv, env);
  const { db, box } = await openStore(config);
  // Every plugins/<id>/manifest.ts: the permission keys the roles, the menu tree and the route gates derive from.
  const catalogue = await loadCatalogue();
  const seeded = await seed(db, { catalogue, adminPassword: config.adminPassword, now: Date.now() });
  if (seeded.generatedAdminPassword) {
    // Shown once: it is not stored anywhere in clear.
    console.log(`Jumpgate: created the administrator account — username: admin  password: ${seeded.generatedAdminPassword}  (change it after the first login)`);
  }
  const app = await buildApp({ config, db, box, catalogue, logger: { level: env.JUMPGATE_LOG_LEVEL || 'info' } });
  // A stop ends the live sessions with their reason first (app.ts preClose, bounded by live.ts STOP_DEADLINE_MS), then
  // closes. Bounded as a whole: whatever hangs, the process is gone within STOP_HARD_DEADLINE_MS.
  const close = async (signal: NodeJS.Signals) => {
    console.log(`Jumpgate: ${signal}, stopping`);
    setTimeout(() => {
      console.error('jumpgate: the stop took too long; exiting');
      process.exit(1);
    }, STOP_HARD_DEADLINE_MS).unref();
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ host: config.host, port: config.port });
  const addr = app.server.address();
  const shown = typeof addr === 'object' && addr ? `${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}` : String(addr);
  console.log(`Jumpgate listening on http://${shown} (data: ${config.dataDir})`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err instanceof ConfigError || err instanceof SecretBoxError ? `jumpgate: ${err.message}` : err);
    process.exit(1);
  });
}
