import type { Db } from '../../db/index.ts';

/*
 * The strategies an authorisation may carry (contract §3.14). The `strategies` table comes with migration
 * 008_strategies_sessions on the strategies branch of issue 12; until it is merged, no strategy exists to be read,
 * and these two functions are the only places that will read that table for the access rule.
 */

export interface Strategy {
  id: string;
  name: string;
  upload: boolean;
  download: boolean;
  delete: boolean;
  rename: boolean;
  edit: boolean;
  createDir: boolean;
  copy: boolean;
  paste: boolean;
  created: string;
}

/** The strategies with these ids (unknown ids are absent from the map). */
export async function strategiesById(_db: Db, _ids: readonly string[]): Promise<Map<string, Strategy>> {
  // MERGE: read `strategies` here once 008_strategies_sessions is on the branch.
  return new Map();
}

/** Throws -1 naming the strategy when it does not exist. */
export async function assertStrategyExists(_db: Db, _id: string): Promise<void> {
  // MERGE: check `strategies` here once 008_strategies_sessions is on the branch.
}
