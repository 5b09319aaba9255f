import { defineModule } from '../../http/routes.ts';
import { systemTimers } from '../../lib/timers.ts';
import { loginLogRoutes } from './login-logs.ts';
import { operationLogRoutes } from './operations.ts';
import { createRetention } from './retention.ts';
import { storageLogRoutes } from './storage-logs.ts';

// The face: what other modules may use of this one.
export { recordLogin } from './login-logs.ts';
export { describeAll, recordOperation, REFUSAL, type RefusalReason } from './operations.ts';
export { recordStorageLog } from './storage-logs.ts';

/**
 * Log audit: the login log (keys login-log, -del, -clear) with its retention, the file-operation log (storage-log…),
 * and the read-only operation log (operation-log), which the others' deletes write to.
 */
export default defineModule('logs', (deps) => {
  const retention = createRetention({ db: deps.db, clock: deps.clock, timers: systemTimers, log: deps.log });
  deps.lifecycle.onReady(() => retention.start());
  deps.lifecycle.onClose(() => retention.stop());
  return [...loginLogRoutes(deps), ...storageLogRoutes(deps), ...operationLogRoutes(deps)];
});
