import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { Asset } from '../../db/schema.ts';
import { fail } from '../../http/envelope.ts';
import { paged } from '../../http/paging.ts';
import { type Deps, type RouteDef, route } from '../../http/routes.ts';
import { parseInput } from '../../http/validation.ts';
import { uuid } from '../../lib/ids.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { assertSecretStays, given, nextSecrets, prepareSecrets, type SealedSecrets } from '../credentials/index.ts';
import { actorOf } from '../../policy/containment.ts';
import { assertWithinHold, UNRESTRICTED } from '../../policy/delegation.ts';
import { actsAsOwner, assertMayChangeOwner, ownerQuery } from '../../policy/owner.ts';
import { idList, oneId, requireAll } from '../../http/ids.ts';
import { type AssetBody, assetBody, attributesSchema, CLIENT_KEY, SOCKS_PASSWORD } from './fields.ts';
import { PROTOCOLS } from '../../../shared/protocols.ts';
import { assetPage, pagingAssets } from './list.ts';
import { assertNameFree, assetDetail, assetOrFail, attributeOf, clientKeyOf, NOT_CHECKED, pruneTags, setAttributes, setTags, socksPasswordOf } from './store.ts';
import { assertMayUseCredential, assertReferences, mayUseCredential } from '../../policy/references.ts';
import { MSG_HOST_KEY, zHostKey } from '../credentials/index.ts';
import { decide } from '../../policy/access-rule.ts';
import { text } from '../../lib/i18n.ts';

const MSG_ROUTES = {
  copyNotAllowed: '复制资产需要「复制」权限（asset-copy）',
  credentialRequired: '请选择授权凭证',
  notSsh: text('只有 SSH 和 RDP 资产有主机密钥或证书指纹', 'Only SSH and RDP assets have a host key or certificate fingerprint'),
};

/**
 * The protocols whose asset pins what its server shows (`assets.host_key`, docs/SERVER.md "Host keys"): SSH's host key,
 * RDP's TLS certificate (sessions/rdp/certificate.ts, same `SHA256:` format). Both change only by the same rules.
 */
const PINS: ReadonlySet<string> = new Set(['ssh', 'rdp']);
const pinsHostKey = (protocol: string): boolean => PINS.has(protocol);

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
 * another host, port or protocol, or a hop (gateway, proxy) added, changed or removed. Dropping a hop is a move too:
 * the same ip:port seen from the bastion instead of from the gateway or proxy is another host. The SOCKS password
 * moves only with the proxy's own address.
 */
function moves(from: Destination | null, to: Destination): { account: string | null; proxy: string | null } {
  if (from === null) return { account: null, proxy: null };
  const proxy = to.proxy !== '' && to.proxy !== from.proxy;
  const gateway = to.accessGatewayId !== from.accessGatewayId;
  const account = to.proxy !== from.proxy || gateway || from.protocol !== to.protocol || from.ip !== to.ip || from.port !== to.port;
  return { account: account ? '资产的连接目标（协议、地址、端口、接入网关或代理）' : null, proxy: proxy ? 'SOCKS 代理的地址或端口' : null };
}

/**
 * The row and attributes to store for a body. The account follows the credentials' rules (credentials/account.ts
 * `nextSecrets`): a secret given replaces, none given keeps `previous`'s, those the type does not use are cleared, a
 * key must parse; a credential account keeps no account of its own. The SOCKS password likewise, kept only while the
 * asset is SSH with the proxy on.
 */
function toStore(box: SecretBox, body: AssetBody, attributes: Record<string, string>, previous: Previous, mayKeep = false) {
  if (body.accountType === 'credential' && !body.credentialId) throw fail(MSG_ROUTES.credentialRequired);
  const attrs = { ...attributes };
  const socksOn = body.protocol === 'ssh' && attrs['socks-proxy-enable'] === 'true';
  const moved = moves(previous.destination, { protocol: body.protocol, ip: body.ip, port: body.port, accessGatewayId: body.accessGatewayId, proxy: proxyOf(body.protocol, attrs) });
  if (body.accountType === 'custom') assertSecretStays(moved.account, body.password, previous.password, undefined, mayKeep);
  if (socksOn) assertSecretStays(moved.proxy, attrs[SOCKS_PASSWORD], previous.socksPassword, 'SOCKS 代理密码', mayKeep);
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

/** Where a body sends the asset's account. */
const destinationOf = (body: AssetBody, attributes: Readonly<Record<string, string | undefined>>): Destination => ({
  protocol: body.protocol,
  ip: body.ip,
  port: body.port,
  accessGatewayId: body.accessGatewayId,
  proxy: proxyOf(body.protocol, attributes),
});

/** The super admin, and the asset's owner, may do with its secrets what whoever entered them may. */
const mayActAsOwner = (actorId: string, asset: Pick<Asset, 'owner'>) => actsAsOwner(actorId, asset.owner);

/** May `userId` open the asset now without restriction: owner, super admin, or a winning grant with no strategy and no end? */
async function opensUnrestricted(db: Db, userId: string, assetId: string, now: number): Promise<boolean> {
  const d = await decide(db, userId, assetId, now);
  if (!d.allowed) return false;
  return d.grant === null || (d.grant.strategyId === null && d.grant.validUntil === null);
}

/** The body gives the login's own secret again (a password, or a private key). */
const reentered = (body: AssetBody) =>
  body.accountType === 'custom' ? given(body.password) !== undefined : body.accountType === 'private-key' ? given(body.privateKey) !== undefined : false;

/**
 * The host key an edit stores (SSH's host key, RDP's certificate: `pinsHostKey`; credentials/host-key.ts). A fingerprint given that differs from the pin is a
 * trust, and so is dropping the pin when the asset moves: both only for whoever may send the secret there (`trusts`).
 * A move by anyone else keeps the pin, so the new host must show the old key.
 */
function nextHostKey(body: AssetBody, stored: string | null, moved: boolean, trusts: boolean): string | null {
  if (!pinsHostKey(body.protocol)) return null;
  if (body.hostKey !== undefined && body.hostKey !== (stored ?? '')) {
    if (!trusts) throw fail(MSG_HOST_KEY.trustRefused);
    return body.hostKey === '' ? null : body.hostKey;
  }
  return moved && trusts ? null : stored;
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
        let mayKeep = false;
        let sourcePin: { destination: Destination; hostKey: string | null } | null = null;
        const actor = await actorOf(principal, catalogue, clock.now());
        if (body.copyFrom) {
          // The console copies an asset without ever seeing its secrets: the server takes them from the source —
          // only for whoever may use them as they are (issue 28, rule 3): its owner, the super admin, or a caller
          // who may open the source without restriction. Anyone else's copy has none: the copy form asks for them.
          if (!(await principal.access()).menus.includes('asset-copy')) throw fail(MSG_ROUTES.copyNotAllowed);
          const source = await assetOrFail(db, body.copyFrom);
          const sourcePrevious = await previousOf(db, source);
          sourcePin = { destination: sourcePrevious.destination!, hostKey: source.hostKey };
          mayKeep = mayActAsOwner(actor.id, source);
          if (mayKeep || (await opensUnrestricted(db, actor.id, source.id, clock.now()))) previous = resealed(box, sourcePrevious);
        }
        await prepareSecrets(box, body.accountType, body, previous); // a passphrase's bcrypt runs in a worker (key-check.ts)
        const { fields, attributes: attrs } = toStore(box, body, attributes, previous, mayKeep);
        // The host key: as entered; a copy to the source's own destination keeps the source's pin.
        const to = destinationOf(body, attributes);
        const hostKey = !pinsHostKey(body.protocol) ? null : body.hostKey ? body.hostKey : sourcePin && !moves(sourcePin.destination, to).account ? sourcePin.hostKey : null;
        const id = uuid();
        await db.transaction().execute(async (trx) => {
          await assertNameFree(trx, body.name);
          await assertReferences(trx, fields);
          if (fields.credentialId !== null) await assertMayUseCredential(trx, actor, fields.credentialId);
          await trx
            .insertInto('assets')
            .values({ id, ...fields, hostKey, ...NOT_CHECKED, created: clock.now(), lastAccessTime: null, owner: principal.user.id })
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
          // The owner and the super admin may send the kept secrets elsewhere; anyone else gives them again.
          const mayKeep = mayActAsOwner(actor.id, current);
          const { fields, attributes: attrs, moved: elsewhere } = toStore(box, body, attributes, await previousOf(trx, current), mayKeep);
          await assertNameFree(trx, body.name, params.id);
          await assertReferences(trx, fields);
          // Another credential, or the same one sent to a new address, is a new use of it.
          if (fields.credentialId !== null && (fields.credentialId !== current.credentialId || elsewhere)) await assertMayUseCredential(trx, actor, fields.credentialId);
          // Who may send the secret anywhere may also trust another host key: the owner, the super admin, whoever
          // enters the secret again in this request, or may use the credential it logs in with.
          const trusts = mayKeep || reentered(body) || (fields.credentialId !== null && (await mayUseCredential(trx, actor, fields.credentialId)));
          const hostKey = nextHostKey(body, current.hostKey, elsewhere, trusts);
          // A new address or route makes the last check say nothing about the asset any more.
          const moved = fields.ip !== current.ip || fields.port !== current.port || fields.accessGatewayId !== current.accessGatewayId;
          await trx
            .updateTable('assets')
            .set(moved ? { ...fields, hostKey, ...NOT_CHECKED } : { ...fields, hostKey })
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
        await deps.events.emit('assets.deleted', { assetIds: ids });
        return null;
      },
    }),

    route({
      method: 'POST',
      path: '/assets/:id/trust-host-key',
      allow: 'granted',
      params: oneId,
      body: z.object({ hostKey: zHostKey }),
      handler: async ({ params, body, principal }) => {
        // Trusting another host key sends the asset's secret to that host: its owner's or the super admin's call.
        return db.transaction().execute(async (trx) => {
          const asset = await assetOrFail(trx, params.id);
          if (!mayActAsOwner(principal.user.id, asset)) throw fail(MSG_HOST_KEY.trustRefused);
          if (!pinsHostKey(asset.protocol)) throw fail(MSG_ROUTES.notSsh);
          const hostKey = body.hostKey ? body.hostKey : null;
          await trx.updateTable('assets').set({ hostKey }).where('id', '=', params.id).execute();
          return { hostKey: hostKey ?? '' };
        });
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
