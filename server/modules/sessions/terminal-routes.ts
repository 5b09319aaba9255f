import { markReachable } from '../assets/index.ts';
import { z } from 'zod';
import type { SessionDeps } from './deps.ts';
import { fail } from '../../http/envelope.ts';
import { closedFrame, type RouteDef, route, socketRoute } from '../../http/routes.ts';
import { text } from '../../lib/i18n.ts';
import { oneId } from '../../http/ids.ts';
import { tokenOf } from '../../http/access.ts';
import { CLOSE } from './live.ts';
import { attach } from './attach.ts';
import { createMonitorGuard } from './monitor-guard.ts';
import type { Recorder } from './recording.ts';
import type { Relay } from './relay.ts';

/*
 * The terminal's routes (contract §2.10, §5.1, §5.2): each relay's WebSocket and monitor (at the paths it declares),
 * and the two calls the terminal page makes on its session (connect, resize). Only the session's creator may use
 * their session. A monitor watches any live session that offers `watch`.
 */

export const MSG_OFFLINE = text('会话已离线', 'The session is no longer running');
export const MSG_NOT_CONNECTING = text('会话尚未建立连接', 'The session is not connecting');

const size = (max: number) => z.coerce.number().int('expected an integer').min(1, 'at least 1').max(max, `at most ${max}`);
const pixels = (min: number, max: number) => z.coerce.number().int('expected an integer').min(min, `at least ${min}`).max(max, `at most ${max}`);

/** A desktop's size in the browser's pixels (relay.ts `screen: 'pixels'`): bounded as the display's (rdp/display.ts). */
export const DESKTOP_SIZE = { minWidth: 640, maxWidth: 3840, minHeight: 480, maxHeight: 2160, width: 1280, height: 800 } as const;
const cellsQuery = z.object({ cols: size(1000).default(80), rows: size(500).default(24) });
const pixelsQuery = z.object({
  width: pixels(DESKTOP_SIZE.minWidth, DESKTOP_SIZE.maxWidth).default(DESKTOP_SIZE.width),
  height: pixels(DESKTOP_SIZE.minHeight, DESKTOP_SIZE.maxHeight).default(DESKTOP_SIZE.height),
});

export function terminalRoutes(deps: SessionDeps, relays: readonly Relay[], recorder: Recorder): RouteDef[] {
  const { db, clock, live } = deps;
  const monitors = relays.flatMap((r) => (r.paths.monitor ? [r.paths.monitor] : []));
  const guard = createMonitorGuard(deps, monitors);
  deps.lifecycle.onClose(() => guard.stop());

  /** The caller's own session row, or `-1 获取会话失败` (the same answer whether it exists or not). */
  const ownSession = async (id: string, userId: string) => {
    const row = await db.selectFrom('sessions').select(['id', 'creator', 'status', 'assetId']).where('id', '=', id).executeTakeFirst();
    if (!row || row.creator !== userId) throw fail(CLOSE.notFound.message);
    return row;
  };

  return [
    ...relays.map((relay) =>
      relay.screen === 'pixels'
        ? socketRoute({
            path: relay.paths.attach,
            allow: 'authenticated',
            params: oneId,
            query: pixelsQuery,
            handler: ({ params, query, principal, socket }) =>
              attach(deps, relay, recorder, { sessionId: params.id, userId: principal.user.id, socket, cols: 80, rows: 24, pixels: { width: query.width, height: query.height } }),
          })
        : socketRoute({
            path: relay.paths.attach,
            allow: 'authenticated',
            params: oneId,
            query: cellsQuery,
            handler: ({ params, query, principal, socket }) =>
              attach(deps, relay, recorder, { sessionId: params.id, userId: principal.user.id, socket, cols: query.cols, rows: query.rows }),
          }),
    ),

    ...monitors.map((path) =>
      socketRoute({
        path,
        allow: 'granted',
        params: oneId,
        handler: async ({ params, socket, principal, req }) => {
          const watch = live.get(params.id)?.capabilities.watch;
          if (!watch) {
            const row = await db.selectFrom('sessions').select('id').where('id', '=', params.id).executeTakeFirst();
            socket.send(closedFrame(row ? MSG_OFFLINE : CLOSE.notFound.message));
            socket.close(1000);
            return;
          }
          watch.watch(socket, principal.user.id);
          // Open only while the token may still call this route (logout, key taken away: monitor-guard.ts).
          guard.add(socket, tokenOf(req), principal.user.id);
        },
      }),
    ),

    route({
      method: 'POST',
      path: '/sessions/:id/connect',
      allow: 'authenticated',
      params: oneId,
      handler: async ({ params, principal }) => {
        const row = await ownSession(params.id, principal.user.id);
        if (row.status === 'connected') return null;
        if (row.status !== 'connecting' || !live.get(row.id)) throw fail(MSG_NOT_CONNECTING);
        const now = clock.now();
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('sessions').set({ status: 'connected', connectedTime: now }).where('id', '=', row.id).execute();
          await markReachable(trx, row.assetId);
        });
        return null;
      },
    }),

    route({
      method: 'POST',
      path: '/sessions/:id/resize',
      allow: 'authenticated',
      params: oneId,
      query: z.object({ width: size(1000), height: size(500) }),
      handler: async ({ params, query, principal }) => {
        const row = await ownSession(params.id, principal.user.id);
        // width = columns, height = rows, as at connect (1.3.9 swapped them here, quirk 17).
        await db.updateTable('sessions').set({ width: query.width, height: query.height }).where('id', '=', row.id).execute();
        return '';
      },
    }),
  ];
}
