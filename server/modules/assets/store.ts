import type { Db } from '../../db/index.ts';
import type { Asset } from '../../db/schema.ts';
import { fail } from '../../http/envelope.ts';
import { sign, uuid } from '../../lib/ids.ts';
import { formatDate } from '../../lib/time.ts';
import { ownerName } from '../../policy/owner.ts';
import { CLIENT_KEY, SECRET_ATTRIBUTES, SOCKS_PASSWORD } from './fields.ts';

/* Reads and writes of assets, their attributes and tags, shared by the routes, the CSV import and tcping. */

export const MSG = {
  notFound: (ids: readonly string[]) => `资产不存在：${ids.join(', ')}`,
  nameTaken: (name: string) => `资产名称「${name}」已被使用`,
};

/**
 * The reachability of an asset nobody has checked yet (a new, imported or copied asset, or one whose address or
 * gateway changed): inactive with no message. A failed check always says why, so the console can tell the two apart
 * (1.3.9 marked new assets active before any check).
 */
export const NOT_CHECKED = { active: 0, activeMessage: '' } as const;

/** Names are unique (assets_name): checked first for a clear answer; inside the writing transaction, so no race. */
export async function assertNameFree(trx: Db, name: string, exceptId?: string): Promise<void> {
  const other = await trx
    .selectFrom('assets')
    .select('id')
    .where('name', '=', name)
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .executeTakeFirst();
  if (other) throw fail(MSG.nameTaken(name));
}

export async function assetOrFail(db: Db, id: string): Promise<Asset> {
  const row = await db.selectFrom('assets').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fail(MSG.notFound([id]), [id]);
  return row;
}

/** Tag ids by name, creating the missing tags. */
export async function ensureTags(trx: Db, names: readonly string[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (names.length === 0) return ids;
  for (let i = 0; i < names.length; i += 500) {
    const found = await trx
      .selectFrom('tags')
      .select(['id', 'name'])
      .where('name', 'in', names.slice(i, i + 500))
      .execute();
    for (const t of found) ids.set(t.name, t.id);
  }
  const missing = names.filter((n) => !ids.has(n)).map((name) => ({ id: uuid(), name }));
  for (let i = 0; i < missing.length; i += 500) await trx.insertInto('tags').values(missing.slice(i, i + 500)).execute();
  for (const t of missing) ids.set(t.name, t.id);
  return ids;
}

/** Drops these tags when no asset carries them any more (GET /tags lists tags in use only). */
export async function pruneTags(trx: Db, tagIds: readonly string[]): Promise<void> {
  if (tagIds.length === 0) return;
  await trx
    .deleteFrom('tags')
    .where('id', 'in', tagIds)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('assetTags').select('assetId').whereRef('assetTags.tagId', '=', 'tags.id'))))
    .execute();
}

/** Replaces an asset's tags. */
export async function setTags(trx: Db, assetId: string, names: readonly string[]): Promise<void> {
  const before = (await trx.selectFrom('assetTags').select('tagId').where('assetId', '=', assetId).execute()).map((r) => r.tagId);
  await trx.deleteFrom('assetTags').where('assetId', '=', assetId).execute();
  const ids = await ensureTags(trx, names);
  if (names.length) await trx.insertInto('assetTags').values(names.map((n) => ({ assetId, tagId: ids.get(n)! }))).execute();
  await pruneTags(trx, before);
}

/** Replaces an asset's attributes with these (already sealed where secret); '' values are not stored. */
export async function setAttributes(trx: Db, assetId: string, attributes: Readonly<Record<string, string>>): Promise<void> {
  await trx.deleteFrom('assetAttributes').where('assetId', '=', assetId).execute();
  const rows = Object.entries(attributes)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => ({ id: sign([assetId, name]), assetId, name, value }));
  if (rows.length) await trx.insertInto('assetAttributes').values(rows).execute();
}

/** The stored value of one attribute of an asset, or null (a secret one's comes sealed). */
export async function attributeOf(db: Db, assetId: string, name: string): Promise<string | null> {
  const row = await db.selectFrom('assetAttributes').select('value').where('assetId', '=', assetId).where('name', '=', name).executeTakeFirst();
  return row?.value ?? null;
}

/** The stored (sealed) value of a secret attribute (SECRET_ATTRIBUTES) of an asset, or null. */
const secretAttributeOf = (db: Db, assetId: string, name: keyof typeof SECRET_ATTRIBUTES) => attributeOf(db, assetId, name);

/** The stored (sealed) SOCKS proxy password of an asset, or null. */
export const socksPasswordOf = (db: Db, assetId: string) => secretAttributeOf(db, assetId, SOCKS_PASSWORD);
/** The stored (sealed) Kubernetes client key of an asset, or null. */
export const clientKeyOf = (db: Db, assetId: string) => secretAttributeOf(db, assetId, CLIENT_KEY);

/** Tags of these assets, each list sorted. */
export async function tagsOf(db: Db, assetIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(assetIds.map((id) => [id, []]));
  for (let i = 0; i < assetIds.length; i += 500) {
    const rows = await db
      .selectFrom('assetTags as at')
      .innerJoin('tags as t', 't.id', 'at.tagId')
      .select(['at.assetId', 't.name'])
      .where('at.assetId', 'in', assetIds.slice(i, i + 500))
      .orderBy('t.name')
      .execute();
    for (const r of rows) out.get(r.assetId)?.push(r.name);
  }
  return out;
}

/** Columns every answer may show: the secrets are not among them. */
export const PUBLIC_COLUMNS = [
  'a.id',
  'a.name',
  'a.protocol',
  'a.ip',
  'a.port',
  'a.accountType',
  'a.username',
  'a.credentialId',
  'a.accessGatewayId',
  'a.hostKey',
  'a.description',
  'a.active',
  'a.activeMessage',
  'a.created',
  'a.lastAccessTime',
  'a.owner',
] as const;
export type PublicAsset = Omit<Asset, 'password' | 'privateKey' | 'passphrase'>;

/** `AssetForPage` (contract §3.3): the list row, tags as the comma string of the wire. */
export const assetForPage = (a: PublicAsset & { ownerName: string }, tags: readonly string[]) => ({
  id: a.id,
  name: a.name,
  description: a.description,
  ip: a.ip,
  protocol: a.protocol,
  port: a.port,
  active: a.active === 1,
  activeMessage: a.activeMessage,
  created: formatDate(a.created),
  lastAccessTime: formatDate(a.lastAccessTime),
  tags: tags.join(','),
  owner: a.owner,
  ownerName: a.ownerName,
});

/**
 * `GET /assets/:id`: the list row's fields (assetForPage) and the account's, merged with its attributes, flat as 1.3.9 — without any secret. Whether
 * one is set shows as `passwordSet`, `privateKeySet`, `passphraseSet`, `socksProxyPasswordSet`, `clientKeySet`. Global property
 * defaults for the protocol's attributes (1.3.9 merges them in) do not exist in this server yet.
 */
export async function assetDetail(db: Db, id: string) {
  const a = await db
    .selectFrom('assets as a')
    .leftJoin('users as ou', 'ou.id', 'a.owner')
    .select([...PUBLIC_COLUMNS, ownerName])
    .select((eb) => [
      eb('a.password', 'is not', null).as('passwordSet'),
      eb('a.privateKey', 'is not', null).as('privateKeySet'),
      eb('a.passphrase', 'is not', null).as('passphraseSet'),
    ])
    .where('a.id', '=', id)
    .executeTakeFirst();
  if (!a) throw fail(MSG.notFound([id]), [id]);
  const attributes = await db.selectFrom('assetAttributes').select(['name', 'value']).where('assetId', '=', id).orderBy('name').execute();
  const tags = (await tagsOf(db, [id])).get(id) ?? [];
  return {
    ...Object.fromEntries(attributes.filter((r) => !Object.hasOwn(SECRET_ATTRIBUTES, r.name)).map((r) => [r.name, r.value])),
    ...assetForPage(a, tags),
    accountType: a.accountType,
    username: a.username,
    credentialId: a.credentialId ?? '',
    accessGatewayId: a.accessGatewayId ?? '',
    /** The pinned SSH host key's fingerprint (`SHA256:…`), '' while none is pinned (issue 28). */
    hostKey: a.hostKey ?? '',
    passwordSet: Boolean(a.passwordSet),
    privateKeySet: Boolean(a.privateKeySet),
    passphraseSet: Boolean(a.passphraseSet),
    socksProxyPasswordSet: attributes.some((r) => r.name === SOCKS_PASSWORD),
    clientKeySet: attributes.some((r) => r.name === CLIENT_KEY),
  };
}

/*
 * What sessions write on an asset: the assets table is this module's, so the sessions module asks through the face.
 */

/** A session was opened on the asset (POST /sessions): its last access time. */
export async function markAccessed(trx: Db, assetId: string, now: number): Promise<void> {
  await trx.updateTable('assets').set({ lastAccessTime: now }).where('id', '=', assetId).execute();
}

/** A session reached the asset: it answers (the asset list's 状态). */
export async function markReachable(trx: Db, assetId: string): Promise<void> {
  await trx.updateTable('assets').set({ active: 1 }).where('id', '=', assetId).execute();
}

/** Trust on first use: pins the host key the first login saw, unless someone pinned one meanwhile. */
export async function pinFirstHostKey(db: Db, assetId: string, hostKey: string): Promise<void> {
  await db.updateTable('assets').set({ hostKey }).where('id', '=', assetId).where('hostKey', 'is', null).execute();
}
