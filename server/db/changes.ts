import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryId, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

/** Every table a write statement names (over-approximates: a table only read in a sub-query counts too). */
function tablesOf(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) {
    for (const n of node) tablesOf(n, out);
  } else if (node && typeof node === 'object') {
    const n = node as { kind?: string; table?: { identifier?: { name?: string } } };
    if (n.kind === 'TableNode' && n.table?.identifier?.name) out.add(n.table.identifier.name);
    for (const v of Object.values(node)) if (v && typeof v === 'object') tablesOf(v, out);
  }
  return out;
}

/**
 * Counts writes per table made through this Kysely instance (and its transactions), so in-process caches can
 * tell whether what they derived from those tables is still current. Counted after the statement ran, so a
 * reader never caches pre-write data under a post-write count. Raw `sql` writes are not seen: write the watched
 * tables with the query builder. One process only; several servers would need a shared version.
 */
export class WriteCounter implements KyselyPlugin {
  private readonly counts = new Map<string, number>();
  private readonly pending = new WeakMap<QueryId, Set<string>>();
  private readonly listeners = new Set<(tables: ReadonlySet<string>) => void>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (WRITES.has(args.node.kind)) this.pending.set(args.queryId, tablesOf(args.node, new Set()));
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const tables = this.pending.get(args.queryId);
    if (tables) {
      this.pending.delete(args.queryId);
      for (const t of tables) this.counts.set(t, (this.counts.get(t) ?? 0) + 1);
      for (const fn of this.listeners) fn(tables);
    }
    return args.result;
  }

  /**
   * Calls `fn` after each write, with the tables it named (still inside its transaction, if any: a listener that
   * reads the database should do so later, e.g. on setImmediate; its read then waits for the commit). Returns the
   * unsubscribe. For what must react to a change rather than notice it on its next read (a monitor socket whose
   * watcher lost its key, sessions/monitor-guard.ts).
   */
  onWrite(fn: (tables: ReadonlySet<string>) => void): () => void {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  }

  /** Sum of the write counts of these tables (query-builder names, e.g. 'usersRolesRef'). */
  version(tables: readonly string[]): number {
    let v = 0;
    for (const t of tables) v += this.counts.get(t) ?? 0;
    return v;
  }
}
