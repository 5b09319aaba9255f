import fs from 'node:fs/promises';
import type { Kysely, Selectable } from 'kysely';
import { type Lng, say } from '../../lib/i18n.ts';
import { shownNickname } from '../../permissions/effective.ts';
import { z } from 'zod';
import type { DB, SessionsTable } from '../../db/schema.ts';
import { fail } from '../../http/envelope.ts';
import { paged, pagingQuery } from '../../http/paging.ts';
import { route } from '../../http/routes.ts';
import type { SessionDeps } from './deps.ts';
import { formatDate } from '../../lib/time.ts';
import { contains, idList, oneId, requireAll, zId } from '../../http/ids.ts';
import { describeAll, recordOperation } from '../logs/index.ts';
import { CLOSE } from './live.ts';
import { MSG_SESSION, recordingFolder, recordingSizeOf, sessionOrFail } from './shared.ts';
import { PROTOCOLS } from '../../../shared/protocols.ts';

/*
 * Session history and its administration (contract §2.10): the online/offline lists, the detail, review marks,
 * delete, clear, forced disconnect and the command index of a session. The terminal (connect, resize, the socket)
 * is the relay's (index.ts and its own files). Delete and clear are written to the operation log (logs/operations.ts)
 * in their transaction.
 */

export const MSG_HISTORY = { stillLive: '会话仍在进行中，请先断开后再删除' };

/** The history lists show at most this many rows a page (each row stats its recording file). */
const MAX_PAGE_SIZE = 100;

const STATUSES = ['no_connect', 'connecting', 'connected', 'disconnected'] as const;

/** '' is "no filter", as the 1.3.9 console sends empty search fields. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const text = (max: number) => optional(z.string().max(max, `at most ${max} characters`));

const pagingFilters = pagingQuery.extend({
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
  // Absent = every status; the consoles send `connected` (online list) or `disconnected` (history).
  status: optional(z.enum(STATUSES)),
  userId: text(64),
  clientIp: text(64),
  assetId: text(64),
  protocol: optional(z.enum(PROTOCOLS)),
  // 1.3.9: "true" → reviewed, any other non-empty value → not reviewed.
  reviewed: text(8).transform((v) => (v === undefined ? undefined : v === 'true' ? 1 : 0)),
  assetName: text(128),
  creatorName: text(128),
});

const commandsQuery = pagingQuery.extend({ command: text(256) });

const flag = (v: number) => (v === 1 ? '1' : '0');

/**
 * A stored session row as the wire shows it, without the flags (the paging's `SessionForPage`); the close reason (kept
 * in zh-CN) and the super admin's seeded nickname are said in `lng`. `recordingSize` is the recording file's size in
 * bytes, undefined when there is no file.
 */
function pageItem(s: Selectable<SessionsTable> & { assetName: string | null; creatorName: string | null; commands: number | null }, recordingSize: number | undefined, lng: Lng) {
  return {
    id: s.id,
    protocol: s.protocol,
    ip: s.ip,
    port: s.port,
    username: s.username,
    connectionId: s.connectionId,
    assetId: s.assetId,
    creator: s.creator,
    clientIp: s.clientIp,
    width: s.width,
    height: s.height,
    status: s.status,
    recording: recordingSize !== undefined ? '1' : '0',
    // Beyond 1.3.9 (additive): the file's size in bytes as it is now (a running session's grows), 0 when there is none.
    recordingSize: recordingSize ?? 0,
    // Beyond 1.3.9 (additive): the recording could not be written from `recordingFailedAt` on, for `recordingFailure`
    // (the system's error code: ENOSPC, EDQUOT, EIO…); a session under the `continue` policy may have no file at all.
    recordingIncomplete: s.recordingFailure !== null,
    recordingFailure: s.recordingFailure ?? '',
    recordingFailedAt: formatDate(s.recordingFailedAt),
    connectedTime: formatDate(s.connectedTime),
    disconnectedTime: formatDate(s.disconnectedTime),
    created: formatDate(s.created),
    assetName: s.assetName ?? '',
    creatorName: shownNickname(s.creator, s.creatorName ?? '', lng),
    code: s.code,
    message: say(s.message, lng),
    mode: s.mode,
    reviewed: s.reviewed === 1,
    commandCount: Number(s.commands ?? 0),
  };
}

/** Sessions with their asset's name, their creator's nickname and the real number of indexed commands. */
function withNames(db: Kysely<DB>) {
  return db
    .selectFrom('sessions as s')
    .leftJoin('assets as a', 'a.id', 's.assetId')
    .leftJoin('users as u', 'u.id', 's.creator')
    .selectAll('s')
    .select(['a.name as assetName', 'u.nickname as creatorName'])
    .select((eb) => eb.selectFrom('sessionCommands as c').whereRef('c.sessionId', '=', 's.id').select(eb.fn.countAll<number>().as('n')).as('commands'));
}

/** Removes the sessions' recording folders (after the rows are gone; a failure is logged, the rows stay deleted). */
async function removeRecordings(deps: Pick<SessionDeps, 'config' | 'log'>, ids: readonly string[]): Promise<void> {
  await Promise.all(
    ids.map((id) =>
      fs.rm(recordingFolder(deps.config, id), { recursive: true, force: true }).catch((err: unknown) => deps.log.error({ err, sessionId: id }, 'could not remove a session recording')),
    ),
  );
}

/** A session that is running (in this process, or by its row) cannot be deleted: its recording is being written. */
function isRunning(deps: Pick<SessionDeps, 'live'>, s: Pick<SessionsTable, 'id' | 'status'>): boolean {
  return deps.live.get(s.id) !== undefined || s.status === 'connecting' || s.status === 'connected';
}

export function historyRoutes(deps: SessionDeps) {
  const { db, clock, config } = deps;
  return [
    route({
      method: 'GET',
      path: '/sessions/paging',
      allow: 'granted',
      query: pagingFilters,
      handler: async ({ query: q, lng }) => {
        // `field`/`order` are ignored, as 1.3.9: newest connection first, then sessions that never connected by age.
        let base = db.selectFrom('sessions as s');
        if (q.status) base = base.where('s.status', '=', q.status);
        if (q.userId) base = base.where('s.creator', '=', q.userId);
        if (q.clientIp) base = base.where(contains('s.clientIp', q.clientIp));
        if (q.assetId) base = base.where('s.assetId', '=', q.assetId);
        if (q.protocol) base = base.where('s.protocol', '=', q.protocol);
        if (q.reviewed !== undefined) base = base.where('s.reviewed', '=', q.reviewed);
        if (q.assetName) base = base.where((eb) => eb('s.assetId', 'in', eb.selectFrom('assets').select('id').where(contains('name', q.assetName!))));
        if (q.creatorName) base = base.where((eb) => eb('s.creator', 'in', eb.selectFrom('users').select('id').where(contains('nickname', q.creatorName!))));
        const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
        const page = await base
          .select('s.id')
          .orderBy('s.connectedTime', 'desc')
          .orderBy('s.created', 'desc')
          .orderBy('s.id', 'desc')
          .limit(q.pageSize)
          .offset((q.pageIndex - 1) * q.pageSize)
          .execute();
        const ids = page.map((p) => p.id);
        const rows = ids.length ? await withNames(db).where('s.id', 'in', ids).execute() : [];
        const byId = new Map(rows.map((r) => [r.id, r]));
        const items = await Promise.all(
          ids.map(async (id) => {
            const row = byId.get(id)!;
            return pageItem(row, await recordingSizeOf(config, id), lng);
          }),
        );
        return paged(total, items);
      },
    }),

    route({
      method: 'GET',
      path: '/sessions/:id',
      allow: 'granted',
      params: oneId,
      handler: async ({ params, lng }) => {
        const s = await withNames(db).where('s.id', '=', params.id).executeTakeFirst();
        if (!s) throw fail(`${MSG_SESSION.notFound}：${params.id}`, [params.id]);
        // Every column of the row: it holds no secret (the account is resolved when the session connects).
        return {
          ...pageItem(s, await recordingSizeOf(config, s.id), lng),
          accessGatewayId: s.accessGatewayId ?? '',
          strategyId: s.strategyId ?? '',
          fileSystem: flag(s.fileSystem),
          storageId: s.storageId,
          upload: flag(s.upload),
          download: flag(s.download),
          delete: flag(s.delete),
          rename: flag(s.rename),
          edit: flag(s.edit),
          createDir: flag(s.createDir),
          copy: flag(s.copy),
          paste: flag(s.paste),
        };
      },
    }),

    route({
      method: 'POST',
      path: '/sessions/:id/reviewed',
      allow: 'granted',
      params: idList,
      handler: ({ params }) => markReviewed(db, params.id, 1),
    }),
    route({
      method: 'POST',
      path: '/sessions/:id/unreviewed',
      allow: 'granted',
      params: idList,
      handler: ({ params }) => markReviewed(db, params.id, 0),
    }),
    route({
      method: 'POST',
      path: '/sessions/reviewed',
      allow: 'granted',
      handler: async () => {
        await db.updateTable('sessions').set({ reviewed: 1 }).where('reviewed', '=', 0).execute();
        return null;
      },
    }),

    route({
      method: 'DELETE',
      path: '/sessions/:id',
      allow: 'granted',
      params: idList,
      handler: async ({ params, principal, req }) => {
        await db.transaction().execute(async (trx) => {
          const found = await trx
            .selectFrom('sessions as s')
            .leftJoin('assets as a', 'a.id', 's.assetId')
            .leftJoin('users as u', 'u.id', 's.creator')
            .select(['s.id', 's.status', 's.clientIp', 's.connectedTime', 'a.name as assetName', 'u.username as username'])
            .where('s.id', 'in', params.id)
            .execute();
          requireAll('会话', params.id, found.map((s) => s.id));
          const running = found.filter((s) => isRunning(deps, s)).map((s) => s.id);
          if (running.length) throw fail(`${MSG_HISTORY.stillLive}：${running.join(', ')}`, running);
          await trx.deleteFrom('sessions').where('id', 'in', params.id).execute();
          const target = describeAll(found.map((s) => `${s.username ?? '-'}@${s.assetName ?? '-'} ${s.clientIp} ${formatDate(s.connectedTime)}`));
          await recordOperation(trx, { user: principal.user, clientIp: req.ip, action: 'session-delete', target, count: found.length, result: 'success' }, clock.now());
        });
        await removeRecordings(deps, params.id);
        return null;
      },
    }),

    route({
      method: 'POST',
      path: '/sessions/clear',
      allow: 'granted',
      handler: async ({ principal, req }) => {
        const gone = await db.transaction().execute(async (trx) => {
          const rows = await trx.selectFrom('sessions').select(['id', 'status']).where('status', '=', 'disconnected').execute();
          // A row says disconnected while this process still runs it only in a race with its close: keep that one.
          const ids = rows.filter((s) => !isRunning(deps, s)).map((s) => s.id);
          for (let i = 0; i < ids.length; i += 500) await trx.deleteFrom('sessions').where('id', 'in', ids.slice(i, i + 500)).execute();
          await recordOperation(trx, { user: principal.user, clientIp: req.ip, action: 'session-clear', target: '', count: ids.length, result: 'success' }, clock.now());
          return ids;
        });
        await removeRecordings(deps, gone);
        return null;
      },
    }),

    route({
      method: 'POST',
      path: '/sessions/:id/disconnect',
      allow: 'granted',
      params: idList,
      handler: async ({ params }) => {
        const found = await db.selectFrom('sessions').select(['id', 'status']).where('id', 'in', params.id).execute();
        requireAll('会话', params.id, found.map((s) => s.id));
        const { code, message } = CLOSE.forced;
        const stale: string[] = [];
        for (const s of found) {
          const live = deps.live.get(s.id);
          // The relay's close() ends the terminal with the reason and records code and message on the row.
          if (live) live.close(code, message);
          else if (s.status === 'connected' || s.status === 'connecting') stale.push(s.id);
        }
        // A row left running with nothing behind it in this process (another process died): marked as forced closed.
        if (stale.length) {
          await db
            .updateTable('sessions')
            .set({ status: 'disconnected', code, message, disconnectedTime: clock.now() })
            .where('id', 'in', stale)
            .where('status', 'in', ['connected', 'connecting'])
            .execute();
        }
        return null;
      },
    }),

    route({
      method: 'GET',
      path: '/sessions/:id/commands/paging',
      allow: 'granted',
      params: z.object({ id: zId }),
      query: commandsQuery,
      handler: async ({ params, query: q }) => {
        await sessionOrFail(db, params.id);
        let base = db.selectFrom('sessionCommands').where('sessionId', '=', params.id);
        if (q.command) base = base.where(contains('command', q.command));
        const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
        const rows = await base
          .select(['id', 'offsetMs', 'command', 'created'])
          .orderBy('offsetMs')
          .orderBy('id')
          .limit(q.pageSize)
          .offset((q.pageIndex - 1) * q.pageSize)
          .execute();
        return paged(
          total,
          rows.map((r) => ({ ...r, created: formatDate(r.created) })),
        );
      },
    }),
  ];
}

/** Review marks for comma ids, all-or-nothing. */
async function markReviewed(db: Kysely<DB>, ids: string[], reviewed: 0 | 1): Promise<null> {
  await db.transaction().execute(async (trx) => {
    const found = await trx.selectFrom('sessions').select('id').where('id', 'in', ids).execute();
    requireAll('会话', ids, found.map((s) => s.id));
    await trx.updateTable('sessions').set({ reviewed }).where('id', 'in', ids).execute();
  });
  return null;
}
