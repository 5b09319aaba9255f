import type { Db } from '../db/index.ts';
import type { Bus } from '../lib/bus.ts';

/*
 * What modules tell each other (lib/bus.ts): a module announces its own change, and whoever must follow it listens.
 * Names say what happened, never what the listener does: the sessions module ends or re-checks live sessions, and
 * the module that owns a table answers "still used?" for it.
 */
export interface DomainEvents {
  /** Accounts were disabled or deleted (stored): what they run ends, monitors they hold close. */
  'accounts.ended': { userIds: readonly string[]; why: 'disabled' | 'deleted' };
  /** Assets were deleted (stored): what runs on them ends. */
  'assets.deleted': { assetIds: readonly string[] };
  /**
   * What decides access changed (grants, group membership, a strategy, an asset's address or gateway): running work
   * in scope asks the access rule again. No scope = everything.
   */
  'access.changed': { userIds?: readonly string[]; assetIds?: readonly string[] };
  /** Asked before credentials are deleted (`ask`): a listener refuses while something it owns still uses one. */
  'credentials.deleting': { trx: Db; ids: readonly string[] };
  /** Asked before access gateways are deleted (`ask`), as for credentials. */
  'gateways.deleting': { trx: Db; ids: readonly string[] };
}

export type Events = Bus<DomainEvents>;
