import type { Db } from '../../../server/db/index.ts';
import type { Insertable } from 'kysely';
import type { LoginLogsTable, Protocol, SessionStatus, SessionsTable, StorageAction } from '../../../server/db/schema.ts';
import { uuid } from '../../../server/lib/ids.ts';

/*
 * Rows the overview and log tests read, inserted directly: the sessions module (another issue) and the login route
 * write them in production; here the tests choose their times.
 */

let n = 0;

export async function insertAsset(db: Db, a: { name?: string; protocol?: Protocol; active?: boolean; created?: number } = {}): Promise<string> {
  const id = uuid();
  n += 1;
  await db
    .insertInto('assets')
    .values({
      id,
      name: a.name ?? `asset-${n}`,
      protocol: a.protocol ?? 'ssh',
      ip: '10.0.0.1',
      port: 22,
      accountType: 'custom',
      username: 'root',
      password: null,
      privateKey: null,
      passphrase: null,
      credentialId: null,
      accessGatewayId: null,
      description: '',
      active: a.active ? 1 : 0,
      activeMessage: '',
      created: a.created ?? 1,
      lastAccessTime: null,
      owner: 'abcdefghijklmnopqrstuvwxyz',
    })
    .execute();
  return id;
}

/**
 * A whole `sessions` row for tests and benchmarks: an SSH session, every strategy flag on, disconnected; `fields`
 * override any column.
 */
export function sessionRow(fields: Partial<Insertable<SessionsTable>> & { assetId: string }): Insertable<SessionsTable> {
  const created = fields.created ?? fields.connectedTime ?? 1;
  // An absent option keeps its default (a key set to undefined would drop the column).
  const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<Insertable<SessionsTable>>;
  return {
    id: uuid(),
    assetId: fields.assetId,
    protocol: 'ssh',
    ip: '10.0.0.1',
    port: 22,
    accessGatewayId: null,
    username: 'root',
    connectionId: '',
    creator: 'abcdefghijklmnopqrstuvwxyz',
    clientIp: '127.0.0.1',
    mode: 'native',
    status: 'disconnected',
    width: 80,
    height: 24,
    created,
    connectedTime: null,
    disconnectedTime: null,
    code: 0,
    message: '',
    recording: '',
    reviewed: 0,
    commandCount: 0,
    strategyId: null,
    fileSystem: 1,
    storageId: '',
    upload: 1,
    download: 1,
    delete: 1,
    rename: 1,
    edit: 1,
    createDir: 1,
    copy: 1,
    paste: 1,
    ...given,
  };
}

export async function insertSession(db: Db, s: { assetId: string; status?: SessionStatus; connectedTime?: number | null; creator?: string; created?: number }): Promise<string> {
  const row = sessionRow(s);
  await db.insertInto('sessions').values(row).execute();
  return row.id;
}

export async function insertLoginLog(db: Db, l: Partial<LoginLogsTable> & { loginTime: number }): Promise<string> {
  const id = l.id ?? uuid();
  await db
    .insertInto('loginLogs')
    .values({ id, username: 'someone', clientIp: '10.1.1.1', clientUserAgent: 'test-agent', logoutTime: null, remember: 0, state: '1', reason: '', ...l })
    .execute();
  return id;
}

export async function insertStorageLog(db: Db, s: { assetId: string; userId: string; action: StorageAction; fileName?: string; created: number; sessionId?: string }): Promise<string> {
  const id = uuid();
  await db
    .insertInto('storageLogs')
    .values({ id, sessionId: s.sessionId ?? 'session-1', fileName: s.fileName ?? '/tmp/x', ...s })
    .execute();
  return id;
}

/** Epoch ms of a local date and time (the server's time zone, as the wire). */
export const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => new Date(y, mo - 1, d, h, mi, s).getTime();
