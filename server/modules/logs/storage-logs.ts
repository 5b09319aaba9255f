import { z } from 'zod';
import type { Deps } from '../../http/access.ts';
import { paged, pageOf, pagingQuery } from '../../http/paging.ts';
import { route } from '../../http/routes.ts';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { StorageLogsTable } from '../../db/schema.ts';
import { uuid } from '../../lib/ids.ts';
import { formatDate } from '../../lib/time.ts';
import { idList, requireAll, zId } from '../../http/ids.ts';
import { describeAll, recordOperation } from './operations.ts';

/*
 * The file-operation log (contract §2.12, §3.11): rows written by the session file manager (modules/sessions) before
 * each operation runs. Fixed 1.3.9 quirks: `field` is whitelisted (it went into SQL, quirk 5), paging is real
 * (quirk 14), delete takes comma ids. The rows outlive their asset and user: their names then show as ''. Each delete
 * and clear is written to the operation log (operations.ts) in its transaction.
 */

const ACTIONS = ['upload', 'download', 'mkdir', 'rm', 'rename', 'edit'] as const;

/** Writes one file operation to the storage log (the session file manager's writes: this module owns the table). */
export async function recordStorageLog(db: Db, entry: Omit<Insertable<StorageLogsTable>, 'id'>): Promise<void> {
  await db.insertInto('storageLogs').values({ id: uuid(), ...entry }).execute();
}

export const storageLogQuery = pagingQuery.extend({
  assetId: zId.optional(),
  userId: zId.optional(),
  /** '' or absent = every action. */
  action: z.enum([...ACTIONS, '']).optional(),
});

export const storageLogRoutes = ({ db, clock }: Deps) => [
  route({
    method: 'GET',
    path: '/storage-logs/paging',
    allow: 'granted',
    query: storageLogQuery,
    handler: async ({ query }) => {
      const page = pageOf(query, { created: 's.created' }, 's.created');
      let base = db.selectFrom('storageLogs as s');
      if (query.assetId) base = base.where('s.assetId', '=', query.assetId);
      if (query.userId) base = base.where('s.userId', '=', query.userId);
      if (query.action) base = base.where('s.action', '=', query.action);
      const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await base
        .leftJoin('assets as a', 'a.id', 's.assetId')
        .leftJoin('users as u', 'u.id', 's.userId')
        .select(['s.id', 's.assetId', 's.sessionId', 's.userId', 's.action', 's.fileName', 's.created', 'a.name as assetName', 'u.nickname as userName'])
        .orderBy(page.sort, page.direction)
        .orderBy('s.id', page.direction)
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return paged(
        total,
        rows.map((r) => ({ ...r, created: formatDate(r.created), assetName: r.assetName ?? '', userName: r.userName ?? '' })),
      );
    },
  }),

  route({
    method: 'DELETE',
    path: '/storage-logs/:id',
    allow: 'granted',
    params: idList,
    handler: async ({ params, principal, req }) => {
      await db.transaction().execute(async (trx) => {
        const found = await trx
          .selectFrom('storageLogs as s')
          .leftJoin('assets as a', 'a.id', 's.assetId')
          .leftJoin('users as u', 'u.id', 's.userId')
          .select(['s.id', 's.action', 's.fileName', 's.created', 'a.name as assetName', 'u.username as username'])
          .where('s.id', 'in', params.id)
          .execute();
        requireAll('文件日志', params.id, found.map((r) => r.id));
        await trx.deleteFrom('storageLogs').where('id', 'in', params.id).execute();
        const target = describeAll(found.map((r) => `${r.username ?? '-'}@${r.assetName ?? '-'} ${r.action} ${r.fileName} ${formatDate(r.created)}`));
        await recordOperation(trx, { user: principal.user, clientIp: req.ip, action: 'storage-log-delete', target, count: found.length, result: 'success' }, clock.now());
      });
      return null;
    },
  }),

  route({
    method: 'POST',
    path: '/storage-logs/clear',
    allow: 'granted',
    handler: async ({ principal, req }) => {
      await db.transaction().execute(async (trx) => {
        const gone = Number((await trx.deleteFrom('storageLogs').executeTakeFirst()).numDeletedRows);
        await recordOperation(trx, { user: principal.user, clientIp: req.ip, action: 'storage-log-clear', target: '', count: gone, result: 'success' }, clock.now());
      });
      return null;
    },
  }),
];
