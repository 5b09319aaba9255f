import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { DB } from '../../db/schema.ts';
import { fail } from '../../http/envelope.ts';
import { text } from '../../lib/i18n.ts';

/* What the session history, recordings, files and stats routes share: the unknown-session answer and where a
 * session's recording lies. */

export const MSG_SESSION = { notFound: text('会话不存在', 'No such session') };

/**
 * `<recordingDir>/<id>`: from the configured folder and the id as stored, never from the row's `recording` text or
 * the request (basename: an id can never climb out of the folder).
 */
export const recordingFolder = (config: Pick<Config, 'recordingDir'>, sessionId: string) => path.join(config.recordingDir, path.basename(sessionId));
/** `<recordingDir>/<id>/<file>`: the file name is the relay's (relay.ts recordingFile). */
export const recordingPath = (config: Pick<Config, 'recordingDir'>, sessionId: string, file: string) => path.join(recordingFolder(config, sessionId), path.basename(file));

/** The session's recording, whatever its relay named it: the one file in its folder; undefined when there is none. */
export async function recordingOf(config: Pick<Config, 'recordingDir'>, sessionId: string): Promise<string | undefined> {
  const folder = recordingFolder(config, sessionId);
  const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
  const file = entries.find((e) => e.isFile());
  return file && path.join(folder, file.name);
}

/**
 * The size in bytes of the session's recording (recordingOf's file, one stat: what the download would serve now);
 * undefined when there is none.
 */
export async function recordingSizeOf(config: Pick<Config, 'recordingDir'>, sessionId: string): Promise<number | undefined> {
  const file = await recordingOf(config, sessionId);
  if (!file) return undefined;
  // Gone between the listing and the stat (a delete, a new session of that id starting over): no recording.
  const st = await fs.stat(file).catch(() => undefined);
  return st?.isFile() ? st.size : undefined;
}

/** The session row, or `-1 会话不存在：<id>`. */
export async function sessionOrFail(db: Kysely<DB>, id: string) {
  const row = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fail(`${MSG_SESSION.notFound}：${id}`, [id]);
  return row;
}
