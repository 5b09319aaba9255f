import type { SessionDeps } from './deps.ts';
import { recheckLiveSessions } from './cuts.ts';
import { MSG_RESTARTED } from './terminal-session.ts';

/*
 * Sessions around the process's life (contract §2.10):
 *  - at start, sessions a crash left `connecting`/`connected` become `disconnected` (code −1, MSG_RESTARTED); their
 *    recordings stay (1.3.9 did the same for `connected` and deleted `connecting` ones);
 *  - every hour, sessions still `no_connect` an hour after their creation are deleted: opened and never attached
 *    (1.3.9 deleted every `no_connect`/`connecting` session whatever its age, quirk 22, cutting sessions being set up);
 *  - every minute, each running session is checked against the access rule again (cuts.ts): what no route announces —
 *    a grant's window ending, a group membership or an asset's owner changing — ends the sessions it refuses.
 */

export const CLEANUP_EVERY_MS = 60 * 60 * 1000;
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;
export const RECHECK_EVERY_MS = 60 * 1000;

export interface SessionLifecycle {
  stop(): void;
}

/** Sessions that a previous process left running end now. Returns how many. */
export async function endOrphanSessions({ db, clock }: Pick<SessionDeps, 'db' | 'clock'>): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ status: 'disconnected', disconnectedTime: clock.now(), code: -1, message: MSG_RESTARTED })
    .where('status', 'in', ['connecting', 'connected'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes the sessions created more than an hour ago and never attached. Returns how many. */
export async function deleteAbandonedSessions({ db, clock }: Pick<SessionDeps, 'db' | 'clock'>): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('status', '=', 'no_connect')
    .where('created', '<', clock.now() - ABANDONED_AFTER_MS)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function startSessionLifecycle(deps: SessionDeps): Promise<SessionLifecycle> {
  await endOrphanSessions(deps);
  await deleteAbandonedSessions(deps);
  const timer = setInterval(() => {
    deleteAbandonedSessions(deps).catch((err) => deps.log.error({ err }, 'session cleanup failed'));
  }, CLEANUP_EVERY_MS);
  timer.unref();
  const recheck = setInterval(() => void recheckLiveSessions(deps), RECHECK_EVERY_MS);
  recheck.unref();
  return {
    stop: () => {
      clearInterval(timer);
      clearInterval(recheck);
    },
  };
}
