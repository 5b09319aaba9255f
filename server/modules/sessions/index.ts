import { z } from 'zod';
import { fail } from '../../http/envelope.ts';
import { defineModule, type Module, route } from '../../http/routes.ts';
import { both } from '../../lib/i18n.ts';
import { uuid } from '../../lib/ids.ts';
import { zId } from '../../http/ids.ts';
import { CLOSE } from './live.ts';
import { endSessionsOfAssets, endSessionsOfUsers, recheckLiveSessions } from './cuts.ts';
import type { SessionDeps } from './deps.ts';
import { type SessionLifecycle, startSessionLifecycle } from './lifecycle.ts';
import { markAccessed } from '../assets/index.ts';
import { recordOperation } from '../logs/index.ts';
import { refusalReason, sessionAccess } from './access.ts';
import { CreationWindow, liveCapRefusal, rateRefusal } from './caps.ts';
import { sessionAnswer } from './flags.ts';
import { historyRoutes } from './history.ts';
import { recordingRoutes } from './recording-download.ts';
import { terminalRoutes } from './terminal-routes.ts';
import { liveCountOf } from './attach.ts';
import { fileRecorder, type Recorder } from './recording.ts';
import { type Relay, relayFor } from './relay.ts';
import { defaultRelays, fileOffer } from './relays.ts';

// The face: what the app and other modules may use of sessions.
export { createLiveSessions, type LiveSessions } from './live.ts';
export type { SessionDeps } from './deps.ts';
export type { Relay } from './relay.ts';
export { defaultRelays } from './relays.ts';

/*
 * Sessions (contract §2.10): POST /sessions asks the access rule, creates the row (`no_connect`) and answers the
 * flags; each relay's terminal and monitor, its own routes (SSH: files, stats), history and recordings are the routes
 * below. A refusal by the access rule is written to the operation log with its reason (the answer stays
 * `-1 您没有权限访问此资产`). The module is built from a list of relays (relays.ts; docs/SERVER.md "Sessions: core
 * and relays").
 */

export const MSG = {
  denied: '您没有权限访问此资产',
};

/** A text-mode session on an asset whose protocol has no terminal relay (a desktop's: RDP, VNC; none: Kubernetes). */
const noTextMode = (protocol: string) =>
  both(`${protocol.toUpperCase()} 资产不能使用终端模式`, `A ${protocol.toUpperCase()} asset cannot be opened in terminal mode`);

const createQuery = z.object({
  assetId: zId,
  // 1.3.9 turned every value but `native` into guacd, `terminal` included (quirk 29): here a mode is what it says.
  mode: z.enum(['guacd', 'native', 'terminal']).default('guacd'),
});

export interface SessionsOptions {
  /** One per protocol (relays.ts `defaultRelays`); a text-mode session can be opened only for these protocols. */
  relays?: readonly Relay[];
  /** Where recordings go; default: files under `config.recordingDir`. */
  recorder?: Recorder;
}

export const sessionsModule = (options: SessionsOptions = {}): Module<SessionDeps> =>
  defineModule<SessionDeps>('sessions', (deps) => {
  const relays = options.relays ?? defaultRelays;
  const recorder = options.recorder ?? fileRecorder(deps.config);
  const creations = new CreationWindow(deps.config.sessionCreatePerMinute);
  // Sessions left running by a crash end at start; abandoned ones are swept hourly; live ones re-checked (lifecycle.ts).
  let lifecycle: SessionLifecycle | undefined;
  deps.lifecycle.onReady(async () => {
    lifecycle = await startSessionLifecycle(deps);
  });
  deps.lifecycle.onClose(() => lifecycle?.stop());
  // Each relay's own start and stop (relay.ts RelayHooks: RDP sweeps the desktops a crash left, stops its own at close).
  for (const relay of relays) {
    const hooks = relay.init?.(deps);
    if (hooks?.ready) deps.lifecycle.onReady(() => hooks.ready?.());
    if (hooks?.close) deps.lifecycle.onClose(() => hooks.close?.());
  }
  // Other modules' changes that take access away (http/events.ts): the sessions they touch end or ask the rule again.
  deps.events.on('accounts.ended', async ({ userIds, why }) => {
    await endSessionsOfUsers(deps, userIds, why === 'disabled' ? CLOSE.accountDisabled : CLOSE.accountDeleted);
  });
  deps.events.on('assets.deleted', async ({ assetIds }) => {
    await endSessionsOfAssets(deps, assetIds);
  });
  deps.events.on('access.changed', async (scope) => {
    await recheckLiveSessions(deps, scope);
  });
  return [
    ...terminalRoutes(deps, relays, recorder),
    route({
      method: 'POST',
      path: '/sessions',
      allow: 'authenticated',
      query: createQuery,
      handler: async ({ query, principal, req }) => {
        const { db, clock } = deps;
        const userId = principal.user.id;
        const now = clock.now();
        // The per-account caps (caps.ts) before anything is read or written.
        const liveMax = deps.config.sessionLiveMax;
        if (liveCountOf(deps, userId) >= liveMax) throw fail(liveCapRefusal(liveMax));
        if (!creations.take(userId, now)) throw fail(rateRefusal(deps.config.sessionCreatePerMinute));
        const id = uuid();
        // One transaction: the decision, the row and the asset's last access agree (a grant removed meanwhile waits).
        const created = await db.transaction().execute(async (trx) => {
          const access = await sessionAccess(trx, userId, query.assetId, now);
          if (!access) return null;
          const { asset, strategyId } = access;
          // Text mode needs a terminal relay: a desktop's (`screen: 'pixels'`: VNC, RDP) opens in mode guacd only.
          const relay = relayFor(relays, asset.protocol);
          if (query.mode !== 'guacd' && (!relay || relay.screen === 'pixels')) throw fail(noTextMode(asset.protocol));
          const attributes = await trx.selectFrom('assetAttributes').select(['name', 'value']).where('assetId', '=', query.assetId).execute();
          const f = { ...access.flags, ...fileOffer(relays, asset.protocol, new Map(attributes.map((a) => [a.name, a.value])), userId) };
          await trx
            .insertInto('sessions')
            .values({
              id,
              protocol: asset.protocol,
              ip: asset.ip,
              port: asset.port,
              assetId: query.assetId,
              accessGatewayId: asset.accessGatewayId,
              creator: userId,
              clientIp: req.ip,
              mode: query.mode,
              status: 'no_connect',
              username: '',
              connectionId: '',
              width: 0,
              height: 0,
              created: now,
              connectedTime: null,
              disconnectedTime: null,
              code: 0,
              message: '',
              recording: '',
              reviewed: 0,
              commandCount: 0,
              strategyId,
              ...f,
            })
            .execute();
          await markAccessed(trx, query.assetId, now);
          return { flags: f, protocol: asset.protocol };
        });
        if (!created) {
          const reason = await refusalReason(db, userId, query.assetId, now);
          const asset = await db.selectFrom('assets').select('name').where('id', '=', query.assetId).executeTakeFirst();
          const target = `${asset?.name ?? query.assetId} (${query.mode})`;
          await recordOperation(db, { user: principal.user, clientIp: req.ip, action: 'session-create', target, count: 1, result: 'refused', reason }, now);
          throw fail(MSG.denied);
        }
        // `protocol` beyond 1.3.9's answer: the terminal page opens the relay's socket from it (1.3.9's console ignores it).
        return { ...sessionAnswer(id, created.flags), protocol: created.protocol };
      },
    }),
    // History and recordings (history.ts, recording-download.ts), then the relays' own routes.
    ...historyRoutes(deps),
    ...recordingRoutes(deps),
    ...relays.flatMap((r) => r.routes?.(deps) ?? []),
  ];
});

export default sessionsModule();
