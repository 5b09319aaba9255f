import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './index.ts';

/**
 * A Kysely read query compiled once and re-run with new values: for the few queries on every request (auth),
 * where building and compiling the query costs several times more than running it.
 * Reads only: plugins see the query once, at compile time (db/changes.ts would miss repeated writes).
 * `build` receives placeholder values and must use each exactly as a bound value (no branching on them).
 *
 *   const byId = prepared(db, (id: string) => db.selectFrom('users').select('name').where('id', '=', id));
 *   const rows = await byId('abc');
 */
export function prepared<A extends unknown[], R>(db: Db, build: (...args: A) => Compilable<R>): (...args: A) => Promise<R[]> {
  let compiled: CompiledQuery<R> | undefined;
  let slots: number[] = [];
  return async (...args: A) => {
    if (!compiled) {
      const markers = args.map((_, i) => `\u0000prepared-${i}\u0000`);
      compiled = build(...(markers as unknown as A)).compile();
      slots = markers.map((m) => compiled!.parameters.indexOf(m));
      if (slots.some((s) => s < 0)) throw new Error('prepared(): every argument must be a bound value of the query');
    }
    const parameters = [...compiled.parameters];
    slots.forEach((slot, i) => {
      parameters[slot] = args[i];
    });
    const result = await db.executeQuery<R>({ ...compiled, parameters });
    return result.rows;
  };
}
