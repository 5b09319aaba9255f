import type { WebSocket } from 'ws';
import { writesOf } from '../../db/index.ts';
import type { SessionDeps } from './deps.ts';
import { closedFrame } from '../../http/routes.ts';
import { text } from '../../lib/i18n.ts';
import { CLOSE } from './live.ts';

/*
 * A monitor socket is a right held for as long as it stays open, so it is held to the same rule as a request: its
 * token must still resolve and its account must still hold a key that grants the route (issue 28 rule 6). A request
 * is checked when it arrives; a socket stays open, so it is checked again whenever a write touches what a token
 * resolves to or what an account may do — the tables the auth caches follow (permissions/principal.ts TOKEN_TABLES,
 * permissions/effective.ts ACCESS_TABLES; db/changes.ts counts them, `onWrite` tells us). A logout, an expired or ended
 * token, a disable, a delete, a role edit that drops the key, a role taken from the account: the socket gets `0<reason>`
 * and closes. The watched session goes on.
 */

export const MSG_MONITOR_LOGGED_OUT = text('登录已失效，监控已关闭', 'Your login ended; the monitor closed');
export const MSG_MONITOR_NO_KEY = text('您已没有监控会话的权限，监控已关闭', 'You may no longer watch sessions; the monitor closed');

/** The tables whose writes may end a watcher's right (what a token resolves to, and an account's keys). */
const WATCHED = new Set(['tokens', 'users', 'accessToken', 'roles', 'usersRolesRef', 'rolesMenusRef']);

export interface MonitorGuard {
  /** Keeps this socket open only while `token` (of `userId`) may still call the monitor route. */
  add(socket: WebSocket, token: string | undefined, userId: string): void;
  /** Checks every open monitor socket now; resolves with how many were closed (tests, and the write listener). */
  check(): Promise<number>;
  stop(): void;
}

/** Guards the monitor sockets opened through `paths` (the relays' monitor routes): a key granting any of them keeps one open. */
export function createMonitorGuard(deps: SessionDeps, paths: readonly string[]): MonitorGuard {
  const sockets = new Map<WebSocket, { token: string | undefined; userId: string }>();
  const gate = [...new Set(paths.flatMap((p) => deps.catalogue.keysGranting(`GET ${p}`)))];
  let scheduled = false;
  let running: Promise<number> | undefined;
  let again = false;

  /** Why this token may no longer watch, or undefined. A disabled or deleted account: the session cuts' words. */
  const refusal = async ({ token, userId }: { token: string | undefined; userId: string }): Promise<string | undefined> => {
    const principal = await deps.gatekeeper.principal(token);
    if (!principal) {
      const user = await deps.db.selectFrom('users').select('status').where('id', '=', userId).executeTakeFirst();
      if (!user) return CLOSE.accountDeleted.message;
      return user.status === 'disabled' ? CLOSE.accountDisabled.message : MSG_MONITOR_LOGGED_OUT;
    }
    try {
      await deps.gatekeeper.authorize(gate, principal);
      return undefined;
    } catch {
      return MSG_MONITOR_NO_KEY;
    }
  };

  const checkAll = async (): Promise<number> => {
    let closed = 0;
    for (const [socket, watcher] of [...sockets]) {
      if (socket.readyState !== socket.OPEN) continue;
      const why = await refusal(watcher);
      if (!why || socket.readyState !== socket.OPEN) continue;
      sockets.delete(socket);
      socket.send(closedFrame(why));
      socket.close(1000);
      closed++;
    }
    return closed;
  };

  /** One pass at a time; a write during a pass asks for one more after it. */
  const check = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = checkAll()
      .catch((err) => {
        deps.log.error({ err }, 'monitor sockets not checked');
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          void check();
        }
      });
    return running;
  };

  const unsubscribe = writesOf(deps.db).onWrite((tables) => {
    if (sockets.size === 0 || scheduled || ![...tables].some((t) => WATCHED.has(t))) return;
    scheduled = true;
    // After the write's transaction: the pass's reads wait for it to commit.
    setImmediate(() => {
      scheduled = false;
      void check();
    });
  });

  return {
    add(socket, token, userId) {
      sockets.set(socket, { token, userId });
      socket.once('close', () => sockets.delete(socket));
    },
    check,
    stop: unsubscribe,
  };
}
