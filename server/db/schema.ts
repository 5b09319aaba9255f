import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Protocol } from '../../shared/protocols.ts';

/*
 * Table types, camelCase (the CamelCasePlugin maps them to the snake_case columns).
 * Conventions that keep the SQL portable to PostgreSQL:
 *   - timestamps are epoch milliseconds (bigint), null = unset; the wire format is made by lib/time.ts;
 *   - booleans are integers 0/1 (better-sqlite3 cannot bind JS booleans).
 */

export interface UsersTable {
  id: string;
  /** As typed at creation, NFC-normalised (lib/username.ts). */
  username: string;
  /** usernameKey(username): NFC + lower case, unique; what login and the uniqueness check match. */
  usernameKey: string;
  /** bcrypt hash; never leaves the server. */
  password: string;
  nickname: string;
  /** base32 secret sealed by the secret box (lib/secret-box.ts), or '-' / '' = TOTP off; never leaves the server. */
  totpSecret: string;
  /** Last TOTP time step (unix s / 30) accepted for this user: a code is accepted once (0 = none yet). */
  totpLastStep: Generated<number>;
  online: number;
  status: 'enabled' | 'disabled';
  type: 'user' | 'admin' | '';
  mail: string;
  source: string;
  created: number;
}

export interface UsersRolesRefTable {
  id: string;
  userId: string;
  roleId: string;
}

export interface RolesTable {
  id: string;
  name: string;
  type: 'default' | 'new';
  deletable: number;
  modifiable: number;
  created: number;
}

export interface RolesMenusRefTable {
  id: string;
  roleId: string;
  menuId: string;
  checked: number;
}

export interface UserGroupsTable {
  id: string;
  name: string;
  created: number;
}

export interface UserGroupMembersTable {
  id: string;
  userId: string;
  userGroupId: string;
}

export interface LoginLogsTable {
  /** A fresh UUID, never the token (1.3.9 used the token and leaked it through the list). */
  id: string;
  username: string;
  clientIp: string;
  clientUserAgent: string;
  loginTime: number;
  logoutTime: number | null;
  remember: number;
  state: '1' | '0';
  reason: string;
}

/** Personal access tokens (`forever-<uuid>`), one per user at most. */
export interface AccessTokenTable {
  id: string;
  userId: string;
  /** SHA-256 (hex) of the token; the token itself is not stored. */
  tokenHash: string;
  /** `forever-…a1b2`: what GET shows once the token is no longer shown in full. */
  hint: string;
  /** The token sealed by the secret box until GET has shown it once (or SHOW_ACCESS_TOKEN_MS passed); then null. */
  shown: string | null;
  created: number;
}

export interface PropertiesTable {
  name: string;
  value: string;
}

/** Login sessions. `id` is the SHA-256 of the token, so a database leak does not leak live tokens. */
export interface TokensTable {
  id: string;
  userId: string;
  loginLogId: string;
  remember: number;
  created: number;
  /** When the token dies unless used again (sliding). */
  expiresAt: number;
  /** Last time expiresAt was pushed forward; lets requests skip the write within a minute. */
  refreshedAt: number;
}

/** Login lock-out counters (modules/auth/lockout.ts). */
export interface LoginAttemptsTable {
  /** `addr:<ip>`, `user:<username key>` or `pair:<ip> <username key>`. */
  scope: string;
  /** Failed attempts, plus the ones being checked right now (reserved before the hash is compared). */
  failures: number;
  lastAt: number;
  /** lastAt + the lock-out window: the row means nothing after this and is deleted. */
  expiresAt: number;
}

/** Reusable accounts for assets (contract §3.5). Secrets are sealed by the secret box; null = none. Never on the wire. */
export interface CredentialsTable {
  id: string;
  name: string;
  type: 'custom' | 'private-key';
  username: string;
  password: string | null;
  privateKey: string | null;
  passphrase: string | null;
  /** Id of the user who created it (or was given it by change-owner). */
  owner: string;
  created: number;
}

/** SSH jump hosts (contract §3.7). `accountType` 'custom' = password (1.3.9's console says 'password'). */
export interface AccessGatewaysTable {
  id: string;
  name: string;
  /** Host name or address. */
  ip: string;
  port: number;
  accountType: 'custom' | 'private-key';
  username: string;
  password: string | null;
  privateKey: string | null;
  passphrase: string | null;
  /** Pinned SSH host key, `SHA256:<base64>` (OpenSSH's fingerprint); null = trust on first use (migration 015). */
  hostKey: string | null;
  owner: string;
  created: number;
}

/** Dynamic commands (contract §3.6): text sent to a terminal as is. */
export interface CommandsTable {
  id: string;
  name: string;
  content: string;
  owner: string;
  created: number;
}

export type { Protocol };
export type AccountType = 'custom' | 'private-key' | 'credential';

/** Remote hosts (contract §3.3). Secrets are sealed by the secret box (db/sealed.ts), null = none; never leave the server. */
export interface AssetsTable {
  id: string;
  /** Unique. */
  name: string;
  protocol: Protocol;
  /** Host name or address. */
  ip: string;
  port: number;
  accountType: AccountType;
  /** '' for credential assets (the credential holds the account). */
  username: string;
  password: string | null;
  privateKey: string | null;
  passphrase: string | null;
  /** credentials.id when accountType is 'credential', else null (checked in code: another migration's table). */
  credentialId: string | null;
  /** access_gateways.id, null = direct (checked in code). */
  accessGatewayId: string | null;
  /** Pinned SSH host key, `SHA256:<base64>` (OpenSSH's fingerprint); null = trust on first use (migration 015). */
  hostKey: string | null;
  description: string;
  /** Last reachability test: 1 reachable, 0 not (`activeMessage` says why). */
  active: number;
  activeMessage: string;
  created: number;
  /** Last session opened on it; null = never. */
  lastAccessTime: number | null;
  /** users.id of the creator, or of whom it was handed to. */
  owner: string;
}

/** Protocol attributes (contract §3.4); id = sign([assetId, name]). `socks-proxy-password` values are sealed. */
export interface AssetAttributesTable {
  id: string;
  assetId: string;
  name: string;
  value: string;
}

export interface TagsTable {
  id: string;
  name: string;
}

export interface AssetTagsTable {
  assetId: string;
  tagId: string;
}

/** 0/1 flags of a strategy (contract §3.14), also copied onto each session. */
export interface StrategyFlags {
  upload: number;
  download: number;
  delete: number;
  rename: number;
  edit: number;
  createDir: number;
  copy: number;
  paste: number;
}

/** What a grant lets its holder do with files and the clipboard (contract §3.14). Names are unique. */
export interface StrategiesTable extends StrategyFlags {
  id: string;
  name: string;
  created: number;
}

export type SessionStatus = 'no_connect' | 'connecting' | 'connected' | 'disconnected';
export type SessionMode = 'native' | 'guacd' | 'terminal';

/**
 * A session (contract §3.8), created by POST /sessions with status `no_connect`. No secrets: the account is resolved
 * when it connects. The flags are the strategy's at creation (all 1 for the owner, the super admin, or a grant without
 * strategy), so a later strategy edit does not change a session already granted.
 */
export interface SessionsTable extends StrategyFlags {
  id: string;
  protocol: Protocol;
  ip: string;
  port: number;
  assetId: string;
  accessGatewayId: string | null;
  /** The account's user name, filled when it connects. */
  username: string;
  connectionId: string;
  /** users.id of who opened it. */
  creator: string;
  clientIp: string;
  mode: SessionMode;
  status: SessionStatus;
  width: number;
  height: number;
  created: number;
  connectedTime: number | null;
  disconnectedTime: number | null;
  /** Close code (contract §5.4) and reason. */
  code: number;
  message: string;
  recording: string;
  /** Why the recording is incomplete: the write's error code (ENOSPC…); null = it is not (migration 016). */
  recordingFailure: string | null;
  /** When writing it failed (epoch ms); null = it never did. */
  recordingFailedAt: number | null;
  reviewed: number;
  commandCount: number;
  /** strategies.id of the grant that opened it; null = none (owner, super admin, grant without strategy). */
  strategyId: string | null;
  /** 1 when a file browser is offered: SSH (SFTP), or RDP with its drive enabled. */
  fileSystem: number;
  /** The RDP drive's storage ('' = none). */
  storageId: string;
}

/**
 * An asset granted to exactly one of a user or a user group (contract §3.19; id = sign([assetId, userId, userGroupId])).
 * Counts only inside its window: validFrom ≤ now < validUntil (null = open on that side). modules/access/rule.ts
 * is the one reader that decides.
 */
export interface AuthorisedTable {
  id: string;
  assetId: string;
  userId: string | null;
  userGroupId: string | null;
  /** strategies.id (checked in code), null = no strategy: no restriction. */
  strategyId: string | null;
  /** Stored for the wire, unused (as 1.3.9). */
  commandFilterId: string | null;
  validFrom: number | null;
  validUntil: number | null;
  created: number;
}

/** A command line entered in an SSH session (the command index), with its time in the session's recording. */
export interface SessionCommandsTable {
  id: Generated<number>;
  sessionId: string;
  /** Milliseconds since the recording's start (its header timestamp): where playback jumps to. */
  offsetMs: number;
  command: string;
  created: number;
}

export type StorageAction = 'upload' | 'download' | 'mkdir' | 'rm' | 'rename' | 'edit';

/** A file operation in a session (contract §3.11), written before the operation runs (so failed ones are logged too). */
export interface StorageLogsTable {
  id: string;
  assetId: string;
  sessionId: string;
  userId: string;
  action: StorageAction;
  /** The path (for rename: the old path; the new one follows ` -> `). */
  fileName: string;
  created: number;
}

/** What an operation event records (the operation log): deleting audit records, and refusals. */
export type OperationAction =
  | 'session-delete'
  | 'session-clear'
  | 'login-log-delete'
  | 'login-log-clear'
  | 'storage-log-delete'
  | 'storage-log-clear'
  | 'session-create'
  | `file-${StorageAction}`;

/**
 * The operation log: who did (or was refused) what, when, from where. Rows are written by the routes that delete
 * audit records (in the delete's transaction) and by the routes that refuse a session or a file operation; no route
 * changes or deletes them. Names are kept as they were (the account may be deleted later).
 */
export interface OperationLogsTable {
  /** In insertion order: events of one millisecond keep their order. */
  id: Generated<number>;
  /** The acting account ('' when none). */
  userId: string;
  /** Its username at the time. */
  username: string;
  clientIp: string;
  action: OperationAction;
  /** What it acted on, in words (names, paths, times); '' for a whole list. */
  target: string;
  /** Records deleted (a delete or clear), 1 for a refused operation. */
  count: number;
  result: 'success' | 'refused';
  /** Why it was refused: a reason code (modules/logs/operations.ts); '' on success. */
  reason: string;
  created: number;
}

export interface DB {
  users: UsersTable;
  usersRolesRef: UsersRolesRefTable;
  roles: RolesTable;
  rolesMenusRef: RolesMenusRefTable;
  userGroups: UserGroupsTable;
  userGroupMembers: UserGroupMembersTable;
  loginLogs: LoginLogsTable;
  accessToken: AccessTokenTable;
  properties: PropertiesTable;
  tokens: TokensTable;
  loginAttempts: LoginAttemptsTable;
  credentials: CredentialsTable;
  accessGateways: AccessGatewaysTable;
  commands: CommandsTable;
  assets: AssetsTable;
  assetAttributes: AssetAttributesTable;
  tags: TagsTable;
  assetTags: AssetTagsTable;
  strategies: StrategiesTable;
  sessions: SessionsTable;
  authorised: AuthorisedTable;
  sessionCommands: SessionCommandsTable;
  storageLogs: StorageLogsTable;
  operationLogs: OperationLogsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Role = Selectable<RolesTable>;
export type LoginLog = Selectable<LoginLogsTable>;
export type Asset = Selectable<AssetsTable>;
export type Strategy = Selectable<StrategiesTable>;
