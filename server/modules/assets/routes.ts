import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { Asset } from '../../db/schema.ts';
import { fail } from '../../http/envelope.ts';
import { paged } from '../../http/paging.ts';
import { type Deps, type RouteDef, route } from '../../http/routes.ts';
import { parseInput } from '../../http/validation.ts';
import { uuid } from '../../lib/ids.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { assertSecretStays, given, nextSecrets, prepareSecrets, type SealedSecrets } from '../credentials/account.ts';
import { actorOf } from '../identity/containment.ts';
import { assertWithinHold, UNRESTRICTED } from '../access/delegation.ts';
import { assertMayChangeOwner, ownerQuery } from '../identity/owner.ts';
import { idList, oneId, requireAll } from '../identity/shared.ts';
import { type AssetBody, assetBody, attributesSchema, CLIENT_KEY, PROTOCOLS, SOCKS_PASSWORD } from './fields.ts';
import { assetPage, pagingAssets } from './list.ts';
import { assertNameFree, assetDetail, assetOrFail, attributeOf, clientKeyOf, NOT_CHECKED, pruneTags, setAttributes, setTags, socksPasswordOf } from './store.ts';
import { endSessionsOfAssets } from '../sessions/cuts.ts';
import { assertMayUseCredential, assertReferences } from './usage.ts';

const MSG_ROUTES = {
  copyNotAllowed: '复制资产需要「复制」权限（asset-copy）',
  credentialRequired: '请选择授权凭证',
};

/** Where an asset's account and SOCKS password are sent: the host, and the hops on the way ('' / null = none). */
interface Destination {
  protocol: string;
  ip: string;
  port: number;
  accessGatewayId: string | null;
  /** `host:port` of the SOCKS proxy when it is on. */
  proxy: string;
}

/** What a create or an edit keeps when the body gives no new value: the stored (sealed) secrets, and where they went. */
interface Previous extends SealedSecrets {
  socksPassword: string | null;
  clientKey: string | null;
  /** null on a create: nothing is kept. */
  destination: Destination | null;
}
const NOTHING: Previous = { password: null, privateKey: null, passphrase: null, socksPassword: null, clientKey: null, destination: null };

const proxyOf = (protocol: string, attrs: Readonly<Record<string, string | undefined>>) =>
  protocol === 'ssh' && attrs['socks-proxy-enable'] === 'true' ? `${attrs[SOCKS_HOST] ?? ''}:${attrs[SOCKS_PORT] ?? ''}` : '';

const previousOf = async (db: Db, a: Asset): Promise<Previous> => {
  const attrs = Object.fromEntries(await Promise.all(['socks-proxy-enable', SOCKS_HOST, SOCKS_PORT].map(async (n) => [n, (await attributeOf(db, a.id, n)) ?? ''] as const)));
  return {
    password: a.password,
    privateKey: a.privateKey,
    passphrase: a.passphrase,
    socksPassword: await socksPasswordOf(db, a.id),
    clientKey: await clientKeyOf(db, a.id),
    destination: { protocol: a.protocol, ip: a.ip, port: a.port, accessGatewayId: a.accessGatewayId, proxy: proxyOf(a.protocol, attrs) },
  };
};

/** A copy's secrets are sealed anew: no two rows share a ciphertext. */
const resealed = (box: SecretBox, p: Previous): Previous => {
  const again = (v: string | null) => (v === null ? null : box.encrypt(box.decrypt(v)));
  return { ...p, password: again(p.password), privateKey: again(p.privateKey), passphrase: again(p.passphrase), socksPassword: again(p.socksPassword), clientKey: again(p.clientKey) };
};

const SOCKS_HOST = 'socks-proxy-host';
const SOCKS_PORT = 'socks-proxy-port';

/**
 * What of `to` differs from where the kept secrets were entered for (credentials/account.ts `assertSecretStays`):
 * another host, port or protocol, or a new hop (gateway, proxy) on the way. Dropping a hop is no move: the secret
 * then goes straight to the same host.
 */
function moves(from: Destination | null, to: Destination): { account: string | null; proxy: string | null } {
  if (from === null) return { account: null, proxy: null };
  const proxy = to.proxy !== '' && to.proxy !== from.proxy;
  const gateway = to.accessGatewayId !== null && to.accessGatewayId !== from.accessGatewayId;
  const account = proxy || gateway || from.protocol !== to.protocol || from.ip !== to.ip || from.port !== to.port;
  return { account: account ? '资产的连接目标（协议、地址、端口、接入网关或代理）' : null, proxy: proxy ? 'SOCKS 代理的地址或端口' : null };
}

/**
 * The row and attributes to store for a body. The account follows the credentials' rules (credentials/account.ts
 * `nextSecrets`): a secret given replaces, none given keeps `previous`'s, those the type does not use are cleared, a
 * key must parse; a credential account keeps no account of its own. The SOCKS password likewise, kept only while the
 * asset is SSH with the proxy on.
 */
function toStore(box: SecretBox, body: AssetBody, attributes: Record<string, string>, previous: Previous) {
  if (body.accountType === 'credential' && !body.credentialId) throw fail(MSG_ROUTES.credentialRequired);
  const attrs = { ...attributes };
  const socksOn = body.protocol === 'ssh' && attrs['socks-proxy-enable'] === 'true';
  const moved = moves(previous.destination, { protocol: body.protocol, ip: body.ip, port: body.port, accessGatewayId: body.accessGatewayId, proxy: proxyOf(body.protocol, attrs) });
  if (body.accountType === 'custom') assertSecretStays(moved.account, body.password, previous.password);
  if (socksOn) assertSecretStays(moved.proxy, attrs[SOCKS_PASSWORD], previous.socksPassword, 'SOCKS 代理密码');
  const secrets: SealedSecrets = body.accountType === 'credential' ? { password: null, privateKey: null, passphrase: null } : nextSecrets(box, body.accountType, body, previous);

  const socksGiven = given(attrs[SOCKS_PASSWORD]);
  attrs[SOCKS_PASSWORD] = !socksOn ? '' : socksGiven !== undefined ? box.encrypt(socksGiven) : (previous.socksPassword ?? '');
  if (body.protocol !== 'ssh') delete attrs[SOCKS_PASSWORD];
  // The Kubernetes client key likewise, kept while the asset is Kubernetes with TLS on. Like a private key it may
  // move with the asset: a TLS client proves the key without sending it.
  if (body.protocol === 'kubernetes') {
    const keyGiven = given(attrs[CLIENT_KEY]);
    attrs[CLIENT_KEY] = attrs['use-ssl'] !== 'true' ? '' : keyGiven !== undefined ? box.encrypt(keyGiven) : (previous.clientKey ?? '');
  }

  return {
    fields: {
      name: body.name,
      protocol: body.protocol,
      ip: body.ip,
      port: body.port,
      accountType: body.accountType,
      username: body.accountType === 'credential' ? '' : body.username,
      ...secrets,
      credentialId: body.accountType === 'credential' ? body.credentialId : null,
      accessGatewayId: body.accessGatewayId,
      description: body.description,
    },
    attributes: attrs,
    /** The asset now goes elsewhere than where its kept secrets were entered for. */
    moved: moved.account !== null,
  };
}

export const assetRoutes = (deps: Deps): RouteDef[] => {
  const { db, clock, box, catalogue } = deps;
  return [
    route({
      method: 'GET',
      path: '/assets',
      allow: 'granted',
      query: z.object({ protocol: z.preprocess((v) => (v === '' ? undefined : v), z.enum(PROTOCOLS, { message: `expected one of: ${PROTOCOLS.join(', ')}` }).optional()) }),
      handler: ({ query }) =>
        db
          .selectFrom('assets')
          .select(['id', 'name'])
          .$if(query.protocol !== undefined, (q) => q.where('protocol', '=', query.protocol!))
          .orderBy('name')
          .execute(),
    }),

    route({
      method: 'GET',
      path: '/tags',
      allow: 'granted',
      handler: async () => {
        const rows = await db
          .selectFrom('tags')
          .select('name')
          .where(({ exists, selectFrom }) => exists(selectFrom('assetTags').select('assetId').whereRef('assetTags.tagId', '=', 'tags.id')))
          .orderBy('name')
          .execute();
        return rows.map((r) => r.name);
      },
    }),

    route({
      method: 'GET',
      path: '/assets/paging',
      allow: 'granted',
      query: pagingAssets,
      handler: async ({ query }) => {
        const { total, items } = await assetPage(db, query);
        return paged(total, items);
      },
    }),

    route({
      method: 'POST',
      path: '/assets',
      allow: 'granted',
      body: assetBody,
      handler: async ({ body, principal, req }) => {
        const attributes = parseInput('body', attributesSchema(body.protocol), req.body) as Record<string, string>;
        let previous = NOTHING;
        if (body.copyFrom) {
          // The console copies an asset without ever seeing its secrets: the server takes them from the source.
          if (!(await principal.access()).menus.includes('asset-copy')) throw fail(MSG_ROUTES.copyNotAllowed);
          previous = resealed(box, await previousOf(db, await assetOrFail(db, body.copyFrom)));
        }
        await prepareSecrets(box, body.accountType, body, previous); // a passphrase's bcrypt runs in a worker (key-check.ts)
        const { fields, attributes: attrs } = toStore(box, body, attributes, previous);
        const id = uuid();
        const actor = await actorOf(principal, catalogue, clock.now());
        await db.transaction().execute(async (trx) => {
          await assertNameFree(trx, body.name);
          await assertReferences(trx, fields);
          if (fields.credentialId !== null) await assertMayUseCredential(trx, actor, fields.credentialId);
          await trx
            .insertInto('assets')
            .values({ id, ...fields, ...NOT_CHECKED, created: clock.now(), lastAccessTime: null, owner: principal.user.id })
            .execute();
          await setAttributes(trx, id, attrs);
          await setTags(trx, id, body.tags);
        });
        return { id };
      },
    }),

    route({
      method: 'GET',
      path: '/assets/:id',
      allow: 'granted',
      params: oneId,
      handler: ({ params }) => assetDetail(db, params.id),
    }),

    route({
      method: 'PUT',
      path: '/assets/:id',
      allow: 'granted',
      params: oneId,
      body: assetBody,
      handler: async ({ params, body, req, principal }) => {
        const attributes = parseInput('body', attributesSchema(body.protocol), req.body) as Record<string, string>;
        const actor = await actorOf(principal, catalogue, clock.now());
        // A passphrase's bcrypt runs in a worker before the transaction (key-check.ts), never inside it.
        await prepareSecrets(box, body.accountType, body, await previousOf(db, await assetOrFail(db, params.id)));
        await db.transaction().execute(async (trx) => {
          const current = await assetOrFail(trx, params.id);
          const { fields, attributes: attrs, moved: elsewhere } = toStore(box, body, attributes, await previousOf(trx, current));
          await assertNameFree(trx, body.name, params.id);
          await assertReferences(trx, fields);
          // Another credential, or the same one sent to a new address, is a new use of it.
          if (fields.credentialId !== null && (fields.credentialId !== current.credentialId || elsewhere)) await assertMayUseCredential(trx, actor, fields.credentialId);
          // A new address or route makes the last check say nothing about the asset any more.
          const moved = fields.ip !== current.ip || fields.port !== current.port || fields.accessGatewayId !== current.accessGatewayId;
          await trx
            .updateTable('assets')
            .set(moved ? { ...fields, ...NOT_CHECKED } : fields)
            .where('id', '=', params.id)
            .execute();
          await setAttributes(trx, params.id, attrs);
          await setTags(trx, params.id, body.tags);
        });
        return null;
      },
    }),

    route({
      method: 'DELETE',
      path: '/assets/:id',
      allow: 'granted',
      params: idList,
      handler: async ({ params }) => {
        const ids = params.id;
        // One transaction: an unknown id deletes nothing. Authorisations of the assets go with them (ON DELETE CASCADE,
        // migration 009_authorised), as attributes and tags do here.
        await db.transaction().execute(async (trx) => {
          const found = await trx.selectFrom('assets').select('id').where('id', 'in', ids).execute();
          requireAll('资产', ids, found.map((a) => a.id));
          const tagIds = (await trx.selectFrom('assetTags').select('tagId').distinct().where('assetId', 'in', ids).execute()).map((r) => r.tagId);
          await trx.deleteFrom('assetAttributes').where('assetId', 'in', ids).execute();
          await trx.deleteFrom('assetTags').where('assetId', 'in', ids).execute();
          await trx.deleteFrom('assets').where('id', 'in', ids).execute();
          await pruneTags(trx, tagIds);
        });
        // Their running sessions end with them (the terminal says why).
        await endSessionsOfAssets(deps, ids);
        return null;
      },
    }),

    route({
      method: 'POST',
      path: '/assets/:id/change-owner',
      allow: 'granted',
      params: oneId,
      query: ownerQuery,
      handler: async ({ params, query, principal }) => {
        const actor = await actorOf(principal, catalogue, clock.now());
        await db.transaction().execute(async (trx) => {
          const asset = await assetOrFail(trx, params.id);
          // The owner opens the asset without a grant: handing it over is handing the asset out.
          await actor.mayGrantAssets(trx, [asset.id]);
          // …without restriction and for ever: only a caller who holds it so may (access/delegation.ts).
          await assertWithinHold(trx, actor.id, [asset.id], UNRESTRICTED, clock.now());
          await assertMayChangeOwner(trx, actor, asset.owner, query.owner);
          await trx.updateTable('assets').set({ owner: query.owner }).where('id', '=', params.id).execute();
        });
        return '';
      },
    }),
  ];
};
