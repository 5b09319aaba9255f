import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';
import { sha256 } from '../lib/ids.ts';
import type { SecretBox } from '../lib/secret-box.ts';

/*
 * Versioned migrations, in code (no files to find at run time). Append new ones with the next number;
 * never edit one that has shipped. Names are snake_case: the CamelCasePlugin leaves them unchanged.
 * Only portable column types: text, integer, bigint.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then, not today's DB type.
type AnyDb = Kysely<any>;

const m001_initial: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull().unique())
      .addColumn('password', 'text', (c) => c.notNull())
      .addColumn('nickname', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('totp_secret', 'text', (c) => c.notNull().defaultTo('-'))
      .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('enabled'))
      .addColumn('type', 'text', (c) => c.notNull().defaultTo('user'))
      .addColumn('mail', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('roles')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull().defaultTo('new'))
      .addColumn('deletable', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('modifiable', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('users_roles_ref')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
      .execute();
    await db.schema.createIndex('users_roles_ref_user').on('users_roles_ref').columns(['user_id', 'role_id']).unique().execute();
    await db.schema.createIndex('users_roles_ref_role').on('users_roles_ref').column('role_id').execute();

    // menu_id has no foreign key: the menu tree is code (modules/menus/tree.ts), as in 1.3.9.
    await db.schema
      .createTable('roles_menus_ref')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
      .addColumn('menu_id', 'text', (c) => c.notNull())
      .addColumn('checked', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex('roles_menus_ref_role').on('roles_menus_ref').columns(['role_id', 'menu_id']).unique().execute();

    await db.schema
      .createTable('user_groups')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('user_group_members')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('user_group_id', 'text', (c) => c.notNull().references('user_groups.id').onDelete('cascade'))
      .execute();
    await db.schema.createIndex('user_group_members_group').on('user_group_members').columns(['user_group_id', 'user_id']).unique().execute();
    await db.schema.createIndex('user_group_members_user').on('user_group_members').column('user_id').execute();

    await db.schema
      .createTable('login_logs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('client_ip', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('client_user_agent', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('login_time', 'bigint', (c) => c.notNull())
      .addColumn('logout_time', 'bigint')
      .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('login_logs_login_time').on('login_logs').column('login_time').execute();

    await db.schema
      .createTable('access_token')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
      .addColumn('token', 'text', (c) => c.notNull().unique())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('properties')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('login_log_id', 'text', (c) => c.notNull())
      .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('refreshed_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('tokens_user').on('tokens').column('user_id').execute();
  },
};

// The user list sorts by created (default) or nickname with id as the tie-break; without these, every page of
// GET /users/paging sorted all users: 10 000 users, first page 232 → ~3 300 req/s (scripts/bench-users.ts).
// username already has its unique index.
const m002_user_list_indexes: Migration = {
  async up(db: AnyDb) {
    await db.schema.createIndex('users_created').on('users').columns(['created', 'id']).execute();
    await db.schema.createIndex('users_nickname').on('users').columns(['nickname', 'id']).execute();
  },
};

// TOTP seeds sealed by the secret box (lib/secret-box.ts); '-' and '' still mean "no TOTP". The last accepted
// time step per user makes a code usable once (modules/auth/totp.ts).
const m003_totp_sealed = (box: SecretBox): Migration => ({
  async up(db: AnyDb) {
    await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    // Aliased: the CamelCasePlugin would rename snake_case result keys.
    const rows: { id: string; secret: string }[] = await db.selectFrom('users').select(['id', 'totp_secret as secret']).where('totp_secret', 'not in', ['-', '']).execute();
    for (const r of rows) {
      if (box.isSealed(r.secret)) continue;
      await db.updateTable('users').set({ totp_secret: box.encrypt(r.secret) }).where('id', '=', r.id).execute();
    }
  },
});

// Personal access tokens: only their SHA-256 is kept, plus a hint (`forever-…a1b2`) and, for a few minutes after
// creation, the token sealed by the secret box so that GET can show it once (permissions/tokens.ts).
const m004_access_token_hashed: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('access_token').renameColumn('token', 'token_hash').execute();
    await db.schema.alterTable('access_token').addColumn('hint', 'text', (c) => c.notNull().defaultTo('')).execute();
    await db.schema.alterTable('access_token').addColumn('shown', 'text').execute();
    const rows: { id: string; token: string }[] = await db.selectFrom('access_token').select(['id', 'token_hash as token']).execute();
    for (const r of rows) {
      await db
        .updateTable('access_token')
        .set({ token_hash: sha256(r.token), hint: `forever-…${r.token.slice(-4)}` })
        .where('id', '=', r.id)
        .execute();
    }
  },
};

// Login lock-out in the database (modules/auth/lockout.ts): one row per counted scope (client address,
// username, or both), so it survives a restart and holds across processes. Rows expire 5 minutes after their
// last failure and are deleted as they expire.
// users.username_key: NFC + lower case (lib/username.ts), unique, so "Admin" and "admin" cannot both exist and
// login matches either. SQLite's lower() folds ASCII only, hence a column computed in code. Names that already
// collide (possible in an imported 1.3.9 database) keep a key suffixed with their id: they still log in by their
// exact name.
const m005_login_security: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('login_attempts')
      .addColumn('scope', 'text', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('last_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('login_attempts_expires').on('login_attempts').column('expires_at').execute();

    await db.schema.alterTable('users').addColumn('username_key', 'text').execute();
    const rows: { id: string; username: string }[] = await db.selectFrom('users').select(['id', 'username']).orderBy('created').orderBy('id').execute();
    const taken = new Set<string>();
    for (const { id, username } of rows) {
      let key = username.normalize('NFC').trim().toLowerCase();
      if (taken.has(key)) key = `${key}\u0000${id}`;
      taken.add(key);
      await db.updateTable('users').set({ username_key: key }).where('id', '=', id).execute();
    }
    await db.schema.createIndex('users_username_key').on('users').column('username_key').unique().execute();
  },
};

// Credentials, access gateways and dynamic commands (contract §3.5–3.7), each with its owner (a user id, no foreign
// key: a deleted user's records stay, with an empty ownerName). Secrets (password, private_key, passphrase) are sealed
// by the secret box; null = none (1.3.9 wrote "-"). Names are unique by a check in the routes, not by an index, so a
// 1.3.9 backup holding duplicates still loads. Indexes follow the lists: default order (created, id), name sort and
// equality checks (name, id), owner.
const m006_resources: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('credentials')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('username', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('password', 'text')
      .addColumn('private_key', 'text')
      .addColumn('passphrase', 'text')
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('access_gateways')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('port', 'integer', (c) => c.notNull())
      .addColumn('account_type', 'text', (c) => c.notNull())
      .addColumn('username', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('password', 'text')
      .addColumn('private_key', 'text')
      .addColumn('passphrase', 'text')
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('commands')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    for (const table of ['credentials', 'access_gateways', 'commands']) {
      await db.schema.createIndex(`${table}_created`).on(table).columns(['created', 'id']).execute();
      await db.schema.createIndex(`${table}_name`).on(table).columns(['name', 'id']).execute();
      await db.schema.createIndex(`${table}_owner`).on(table).column('owner').execute();
    }
    await db.schema.createIndex('access_gateways_ip').on('access_gateways').columns(['ip', 'id']).execute();
  },
};

// Assets (contract §3.3, §3.4) and their tags. Secrets (password, private_key, passphrase and the
// `socks-proxy-password` attribute value) are sealed by the secret box, null = none. Tags are a real
// many-to-many, so "all these tags" is an index lookup per tag. credential_id and access_gateway_id point at
// tables of 006_resources: their references are checked in code (as the resources' own owner ids), not by foreign keys.
// The indexes serve the asset list: each sortable column with the default tie-break (created, id), so a page is a
// walk of one index whatever the filter on that column.
const m007_assets: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('assets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('protocol', 'text', (c) => c.notNull())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('port', 'integer', (c) => c.notNull())
      .addColumn('account_type', 'text', (c) => c.notNull())
      .addColumn('username', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('password', 'text')
      .addColumn('private_key', 'text')
      .addColumn('passphrase', 'text')
      .addColumn('credential_id', 'text')
      .addColumn('access_gateway_id', 'text')
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('active_message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('last_access_time', 'bigint')
      .addColumn('owner', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('assets_name').on('assets').column('name').unique().execute();
    // The default order. name and ip ride along: their filters (LIKE '%…%', which no index can seek) are then checked
    // inside this index, without reading a row per asset, for the page and its count alike.
    await db.schema.createIndex('assets_created').on('assets').columns(['created', 'id', 'name', 'ip']).execute();
    for (const column of ['protocol', 'ip', 'port', 'active', 'last_access_time']) {
      await db.schema.createIndex(`assets_${column}`).on('assets').columns([column, 'created', 'id']).execute();
    }
    await db.schema.createIndex('assets_owner').on('assets').column('owner').execute();
    await db.schema.createIndex('assets_credential').on('assets').column('credential_id').execute();
    await db.schema.createIndex('assets_access_gateway').on('assets').column('access_gateway_id').execute();

    await db.schema
      .createTable('asset_attributes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('asset_attributes_asset').on('asset_attributes').columns(['asset_id', 'name']).unique().execute();

    await db.schema
      .createTable('tags')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .execute();
    await db.schema
      .createTable('asset_tags')
      .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
      .addColumn('tag_id', 'text', (c) => c.notNull().references('tags.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('asset_tags_pk', ['asset_id', 'tag_id'])
      .execute();
    await db.schema.createIndex('asset_tags_tag').on('asset_tags').columns(['tag_id', 'asset_id']).execute();
  },
};

// Strategies (contract §3.14): what a grant lets its holder do with files and the clipboard; flags 0/1, names unique.
// Sessions (contract §3.8): the row POST /sessions creates and the session relays drive (connect, close, replay).
// No secret columns: the account is resolved from the asset or its credential when the session connects, so no
// session row ever holds a password (1.3.9 copied them in, sealed, and wiped them on close). `created` is new: the
// cleanup of sessions that never connected can then go by age (quirk 22). asset_id and creator have no foreign
// keys: a session is history and outlives its asset and its user.
const m008_strategies_sessions: Migration = {
  async up(db: AnyDb) {
    const flags = ['upload', 'download', 'delete', 'rename', 'edit', 'create_dir', 'copy', 'paste'];
    let strategies = db.schema.createTable('strategies').addColumn('id', 'text', (c) => c.primaryKey()).addColumn('name', 'text', (c) => c.notNull());
    for (const f of flags) strategies = strategies.addColumn(f, 'integer', (c) => c.notNull().defaultTo(0));
    await strategies.addColumn('created', 'bigint', (c) => c.notNull()).execute();
    await db.schema.createIndex('strategies_name').on('strategies').column('name').unique().execute();
    await db.schema.createIndex('strategies_created').on('strategies').columns(['created', 'id']).execute();

    let sessions = db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('protocol', 'text', (c) => c.notNull())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('port', 'integer', (c) => c.notNull())
      .addColumn('asset_id', 'text', (c) => c.notNull())
      .addColumn('access_gateway_id', 'text')
      .addColumn('username', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('connection_id', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('creator', 'text', (c) => c.notNull())
      .addColumn('client_ip', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('height', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('connected_time', 'bigint')
      .addColumn('disconnected_time', 'bigint')
      .addColumn('code', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('recording', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('reviewed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('command_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('strategy_id', 'text')
      .addColumn('file_system', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('storage_id', 'text', (c) => c.notNull().defaultTo(''));
    for (const f of flags) sessions = sessions.addColumn(f, 'integer', (c) => c.notNull().defaultTo(0));
    await sessions.execute();
    // The online and offline lists filter by status and sort by connection time (then id); the creator, asset and
    // age lookups (a user's sessions, an asset's sessions, the cleanup of rows that never connected) have their own.
    await db.schema.createIndex('sessions_status').on('sessions').columns(['status', 'connected_time', 'id']).execute();
    await db.schema.createIndex('sessions_created').on('sessions').columns(['status', 'created']).execute();
    await db.schema.createIndex('sessions_creator').on('sessions').columns(['creator', 'connected_time']).execute();
    await db.schema.createIndex('sessions_asset').on('sessions').columns(['asset_id', 'connected_time']).execute();
  },
};

// Authorisations (contract §3.19): an asset granted to exactly one of a user or a user group, with an optional
// strategy and, beyond 1.3.9, an optional validity window (epoch ms; null = open on that side). Rows go with their
// asset, user or group (CASCADE). strategy_id has no foreign key: the strategies table is another migration's, and a
// strategy in use is handled in code. The indexes serve modules/access/rule.ts: "which assets may this user (or
// these groups) open" reads (subject, asset, window) from the index alone; the asset side lists by asset.
const m009_authorised: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('authorised')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('user_group_id', 'text', (c) => c.references('user_groups.id').onDelete('cascade'))
      .addColumn('strategy_id', 'text')
      .addColumn('command_filter_id', 'text')
      .addColumn('valid_from', 'bigint')
      .addColumn('valid_until', 'bigint')
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addCheckConstraint('authorised_one_subject', sql`(user_id is null) <> (user_group_id is null)`)
      .addCheckConstraint('authorised_window', sql`valid_from is null or valid_until is null or valid_until > valid_from`)
      .execute();
    await db.schema.createIndex('authorised_user').on('authorised').columns(['user_id', 'asset_id', 'valid_from', 'valid_until']).execute();
    await db.schema.createIndex('authorised_group').on('authorised').columns(['user_group_id', 'asset_id', 'valid_from', 'valid_until']).execute();
    await db.schema.createIndex('authorised_asset').on('authorised').columns(['asset_id', 'created']).execute();
    await db.schema.createIndex('authorised_strategy').on('authorised').column('strategy_id').execute();
  },
};

// Session audit (issue 13): the command index of each SSH session (beyond 1.3.9, which named
// /sessions/:id/commands/paging but never built it) and the file-operation log (contract §3.11). A command goes with
// its session (CASCADE); `created` (epoch ms) orders commands across sessions for a later search over all of them.
// storage_logs keeps its rows when the session or asset goes: it is an audit trail, read with the names it had.
const m010_session_audit: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('session_commands')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('offset_ms', 'integer', (c) => c.notNull())
      .addColumn('command', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('session_commands_session').on('session_commands').columns(['session_id', 'offset_ms']).execute();
    await db.schema.createIndex('session_commands_created').on('session_commands').column('created').execute();

    await db.schema
      .createTable('storage_logs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('asset_id', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('storage_logs_created').on('storage_logs').columns(['created', 'id']).execute();
    await db.schema.createIndex('storage_logs_asset').on('storage_logs').columns(['asset_id', 'created']).execute();
    await db.schema.createIndex('storage_logs_user').on('storage_logs').columns(['user_id', 'created']).execute();
  },
};

// Overview and audit (issue 14): the indexes behind the dashboard's counters and the log lists, so that none of
// them reads every row. login_logs: failed logins and the per-day successful logins / distinct users walk
// (state, login_time, username) over a time range without touching a row (login_time alone, from 001, serves the
// list order and the retention purge); the address filter (contains, no seek possible) scans (client_ip) instead of
// the rows with their user agents, and counts from it. sessions: sessions and distinct assets per day walk (connected_time,
// asset_id). tokens: users online = distinct users among unexpired tokens, (expires_at, user_id); ending the token of
// a deleted login-log row looks it up by login_log_id. storage_logs: the action filter, newest first.
const m011_overview_audit: Migration = {
  async up(db: AnyDb) {
    await db.schema.createIndex('login_logs_state').on('login_logs').columns(['state', 'login_time', 'username']).execute();
    await db.schema.createIndex('login_logs_client_ip').on('login_logs').column('client_ip').execute();
    await db.schema.createIndex('sessions_connected').on('sessions').columns(['connected_time', 'asset_id']).execute();
    await db.schema.createIndex('tokens_expires').on('tokens').columns(['expires_at', 'user_id']).execute();
    await db.schema.createIndex('tokens_login_log').on('tokens').column('login_log_id').execute();
    await db.schema.createIndex('storage_logs_action').on('storage_logs').columns(['action', 'created']).execute();
  },
};

// users.username_key folds compatibility characters too (NFKC, then case-folded: lib/username.ts), so "ＡＤＭＩＮ" and
// "admin" are one name. Every key is recomputed (the rule is written out here: this migration must not follow later
// changes of lib/username.ts). Accounts that now collide all stay, and keep logging in by their exact name: a key
// that does not change stays with its account, the others get 005's id suffix, oldest first. The routes refuse new
// collisions. The unique index is dropped while keys move: a later row may hold the key an earlier one moves to.
const m012_username_key_nfkc: Migration = {
  async up(db: AnyDb) {
    const keyOf = (name: string) => name.trim().normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
    const rows: { id: string; username: string; old: string }[] = await db
      .selectFrom('users')
      .select(['id', 'username', 'username_key as old'])
      .orderBy('created')
      .orderBy('id')
      .execute();
    const next = new Map<string, string>();
    for (const r of rows) if (keyOf(r.username) === r.old) next.set(r.id, r.old);
    const taken = new Set(next.values());
    for (const r of rows) {
      if (next.has(r.id)) continue;
      let key = keyOf(r.username);
      if (taken.has(key)) key = `${key}\u0000${r.id}`;
      taken.add(key);
      next.set(r.id, key);
    }
    await db.schema.dropIndex('users_username_key').execute();
    for (const r of rows) {
      const key = next.get(r.id)!;
      if (key !== r.old) await db.updateTable('users').set({ username_key: key }).where('id', '=', r.id).execute();
    }
    await db.schema.createIndex('users_username_key').on('users').column('username_key').unique().execute();
  },
};

// The Kubernetes `client-key` attribute (a TLS private key) is a secret like the SOCKS password: sealed by the secret
// box (db/sealed.ts), never answered. Values stored in clear before are sealed here; sealed ones are left alone.
const m013_client_key_sealed = (box: SecretBox): Migration => ({
  async up(db: AnyDb) {
    const rows: { id: string; value: string }[] = await db.selectFrom('asset_attributes').select(['id', 'value']).where('name', '=', 'client-key').execute();
    for (const r of rows) {
      if (box.isSealed(r.value)) continue;
      await db.updateTable('asset_attributes').set({ value: box.encrypt(r.value) }).where('id', '=', r.id).execute();
    }
  },
});

// The operation log (issue 27): deletions of audit records and refused operations, kept where the console cannot
// delete them (no route writes to it but an insert). Newest first by (created, id), the id counting up in insertion
// order (events of one millisecond keep theirs); filtered by action and by result along the time order.
const m014_operation_logs: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('operation_logs')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('client_ip', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('result', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('operation_logs_created').on('operation_logs').columns(['created', 'id']).execute();
    await db.schema.createIndex('operation_logs_action').on('operation_logs').columns(['action', 'created']).execute();
    await db.schema.createIndex('operation_logs_result').on('operation_logs').columns(['result', 'created']).execute();
  },
};

// Host keys (issue 28, rule 2): an SSH asset's and an access gateway's pinned host key, as OpenSSH prints its SHA-256
// fingerprint (`SHA256:<base64 without padding>`); null = not pinned yet (the first successful handshake pins it).
// A secret is offered only to the host whose key matches (modules/sessions/host-key.ts).
const m015_host_keys: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('assets').addColumn('host_key', 'text').execute();
    await db.schema.alterTable('access_gateways').addColumn('host_key', 'text').execute();
  },
};

// A recording that could not be written (issue 30): why (the system's error code, ENOSPC…) and when (epoch ms); both
// null = it never failed. The recording text column keeps 1.3.9's meaning.
const m016_recording_failure: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('sessions').addColumn('recording_failure', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('recording_failed_at', 'bigint').execute();
  },
};

/** Every migration; those that seal secrets need the box the server was started with. */
export const migrationsFor = (box: SecretBox): Record<string, Migration> => ({
  '001_initial': m001_initial,
  '002_user_list_indexes': m002_user_list_indexes,
  '003_totp_sealed': m003_totp_sealed(box),
  '004_access_token_hashed': m004_access_token_hashed,
  '005_login_security': m005_login_security,
  '006_resources': m006_resources,
  '007_assets': m007_assets,
  '008_strategies_sessions': m008_strategies_sessions,
  '009_authorised': m009_authorised,
  '010_session_audit': m010_session_audit,
  '011_overview_audit': m011_overview_audit,
  '012_username_key_nfkc': m012_username_key_nfkc,
  '013_client_key_sealed': m013_client_key_sealed(box),
  '014_operation_logs': m014_operation_logs,
  '015_host_keys': m015_host_keys,
  '016_recording_failure': m016_recording_failure,
});

export const migrationProvider = (box: SecretBox): MigrationProvider => ({ getMigrations: async () => migrationsFor(box) });
