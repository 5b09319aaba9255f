import type { Kysely, Selectable } from 'kysely';
import type { DB, SessionsTable } from '../../db/schema.ts';
import { fail } from '../../http/envelope.ts';
import { text } from '../../lib/i18n.ts';
import type { LiveSession, LiveSessions } from './live.ts';

export type SessionRow = Selectable<SessionsTable>;

/*
 * The creator's own running session, for the routes that act on it from the terminal page (stats, files). Nobody
 * else may use a session (1.3.9 checked nothing, quirk 3): another user's session answers exactly as an unknown one,
 * so session ids cannot be probed.
 */

export const MSG_OWNED = {
  notFound: text('获取会话失败', 'Session not found'),
  offline: text('会话已离线', 'The session is no longer running'),
  /** The session's strategy does not allow this file operation. */
  forbidden: text('禁止操作', 'Not allowed by the strategy of this session'),
};

/** The session row when `userId` created it; otherwise `-1 获取会话失败`. */
export async function ownSession(db: Kysely<DB>, userId: string, id: string): Promise<SessionRow> {
  const row = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || row.creator !== userId) throw fail(MSG_OWNED.notFound);
  return row;
}

/** The running session behind the row (its relay's connection); `-1 会话已离线` when it is not running in this process. */
export function liveOf(live: LiveSessions, row: SessionRow): LiveSession {
  const session = live.get(row.id);
  if (!session || session.creator !== row.creator) throw fail(MSG_OWNED.offline);
  return session;
}
