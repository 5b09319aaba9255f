import type { SessionDeps } from './deps.ts';
import { FLAGS } from '../../policy/strategies.ts';
import { sessionAccess } from './access.ts';
import { CLOSE, type CloseReason, type LiveSession } from './live.ts';

/*
 * Running sessions follow the changes that take access away (audit H2 C3): the routes that disable or delete an
 * account, remove or replace a grant, change a strategy or delete an asset call these once their change is stored.
 * The user's terminal gets the reason as its closed frame and the row keeps code 802 with it (as a forced close).
 * A failure here is logged, never the route's answer: the change itself is stored; the minute check
 * (lifecycle.ts) and the next file operation ask the rule again anyway.
 */

type CutDeps = Pick<SessionDeps, 'db' | 'clock' | 'live' | 'log'>;

async function ending(deps: CutDeps, what: string, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    deps.log.error({ err }, `live sessions not ended (${what})`);
    return 0;
  }
}

/**
 * Ends the sessions of these accounts (disabled or deleted), and closes the monitors they watch other sessions
 * through. Resolves with how many sessions ended, once their rows are written.
 */
export function endSessionsOfUsers(deps: CutDeps, userIds: readonly string[], reason: CloseReason): Promise<number> {
  const ids = new Set(userIds);
  for (const s of deps.live.all()) s.capabilities.watch?.drop(ids, reason.message);
  return ending(deps, 'accounts', () => deps.live.endWhere((s) => ids.has(s.creator), reason));
}

/** Ends the sessions on these assets: the asset DELETE route calls it once the assets are gone. */
export function endSessionsOfAssets(deps: CutDeps, assetIds: readonly string[]): Promise<number> {
  const ids = new Set(assetIds);
  return ending(deps, 'assets', () => deps.live.endWhere((s) => ids.has(s.assetId), CLOSE.assetDeleted));
}

/**
 * Asks the access rule again for every live session (or those of these users / on these assets): the sessions it
 * refuses end (CLOSE.revoked); the others get the current decision's flags on their row. Resolves with how many ended.
 */
export function recheckLiveSessions(deps: CutDeps, scope: { userIds?: readonly string[]; assetIds?: readonly string[] } = {}): Promise<number> {
  const users = scope.userIds && new Set(scope.userIds);
  const assets = scope.assetIds && new Set(scope.assetIds);
  const inScope = (s: LiveSession) => (!users || users.has(s.creator)) && (!assets || assets.has(s.assetId));
  return ending(deps, 'access check', async () => {
    const now = deps.clock.now();
    const refused = new Set<LiveSession>();
    for (const s of deps.live.all().filter(inScope)) {
      const access = await sessionAccess(deps.db, s.creator, s.assetId, now);
      if (!access) {
        refused.add(s);
        continue;
      }
      const flags = Object.fromEntries(FLAGS.map((f) => [f, access.flags[f]]));
      await deps.db.updateTable('sessions').set({ ...flags, strategyId: access.strategyId }).where('id', '=', s.id).execute();
    }
    return deps.live.endWhere((s) => refused.has(s), CLOSE.revoked);
  });
}
