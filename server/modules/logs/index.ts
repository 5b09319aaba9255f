import { defineModule } from '../../http/routes.ts';
import { systemTimers } from '../../lib/timers.ts';
import { loginLogRoutes } from './login-logs.ts';
import { createRetention } from './retention.ts';
import { storageLogRoutes } from './storage-logs.ts';

/** Log audit: the login log (keys login-log, -del, -clear) with its retention, and the file-operation log (storage-log…). */
export default defineModule('logs', (deps) => {
  const retention = createRetention({ db: deps.db, clock: deps.clock, timers: systemTimers, log: deps.log });
  deps.lifecycle.onReady(() => retention.start());
  deps.lifecycle.onClose(() => retention.stop());
  return [...loginLogRoutes(deps), ...storageLogRoutes(deps)];
});
