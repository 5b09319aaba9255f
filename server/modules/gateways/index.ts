import { z } from 'zod';
import { isHost } from '../../../shared/host.ts';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/envelope.ts';
import { paged, pageOf, pagingQuery } from '../../http/paging.ts';
import { type Deps, defineModule, route } from '../../http/routes.ts';
import type { Gateways } from './service.ts';
import { uuid } from '../../lib/ids.ts';
import { formatDate } from '../../lib/time.ts';
import { assertSecretStays, given, nextSecrets, prepareSecrets, secretFields, secretFlags, zUsername } from '../credentials/index.ts';
import { MSG_HOST_KEY, zHostKey } from '../credentials/index.ts';
import { both } from '../../lib/i18n.ts';
import { actsAsOwner, ownerName } from '../../policy/owner.ts';
import { contains, idList, oneId, requireAll, zName } from '../../http/ids.ts';

// The face: what other modules may use of this one.
export { describeSshError } from './service.ts';


// The face: the live side other modules and the app use.
export { createGateways, type Gateways } from './service.ts';
/** What a module that reaches hosts through gateways asks of the app (built in app.ts). */
export type GatewayDeps = Deps & { gateways: Gateways };

/*
 * Access gateways (contract §2.9, §3.7): SSH jump hosts. The records live here, the live side (clients, tunnels,
 * connected/message) in service.ts (`deps.gateways`). Fixed 1.3.9 quirks: secrets sealed and never answered
 * (quirk 7), an edit without secrets keeps them in the database *and* in the live gateway (quirk 20), real paging.
 */

const body = z.object({
  name: zName(128),
  // A host name or an address (shared/host.ts: the console's form checks the same).
  ip: z.string().trim().min(1, 'required').max(255, 'at most 255 characters').refine(isHost, 'expected a host name or an IP address'),
  port: z.number({ message: 'expected a number' }).int('expected an integer').min(1, 'expected 1-65535').max(65535, 'expected 1-65535'),
  // The 1.3.9 console sends 'password' for a password login; it is stored as 'custom', as its server's enum says.
  accountType: z.enum(['custom', 'password', 'private-key'], { message: 'expected custom or private-key' }).transform((t) => (t === 'password' ? 'custom' : t)),
  username: zUsername,
  ...secretFields,
  /** The host key to pin (`SHA256:…`), '' to pin on the next login; absent keeps the pin (credentials/host-key.ts). */
  hostKey: zHostKey,
});

const PUBLIC = ['g.id', 'g.name', 'g.ip', 'g.port', 'g.accountType', 'g.username', 'g.owner', 'g.created'] as const;

const MSG_GATEWAY = {
  moved: '接入网关的地址、端口或授权账户',
  exposed: (assets: readonly string[], count: number) =>
    both(
      `接入网关的地址、端口或授权账户已更改：经由它连接的资产（${named(assets, count)}）没有可校验的主机密钥，它们已保存的密码只发往原来的网关；只有接入网关的所有者或超级管理员可以这样修改`,
      `The gateway's address, port or login changed: assets reached through it (${named(assets, count)}) have no host key to check, and their saved passwords go only to the original gateway; only the gateway's owner or the super admin may make this change`,
    ),
};

const named = (names: readonly string[], count: number) => (count > names.length ? `${names.join('、')} 等 ${count} 项` : names.join('、'));

/**
 * A gateway that moves (another address, port or login) carries its assets' secrets to wherever it now is: the
 * secrets of assets that no host key protects (not SSH, or SSH with nothing pinned yet) would reach a host the
 * editor chose. Only the gateway's owner or the super admin may move a gateway that such assets use.
 */
async function assertNoExposedAssets(trx: Db, gatewayId: string): Promise<void> {
  const base = trx
    .selectFrom('assets')
    .where('accessGatewayId', '=', gatewayId)
    .where((eb) => eb.or([eb('protocol', '!=', 'ssh'), eb('hostKey', 'is', null)]));
  const rows = await base.select('name').orderBy('name').limit(5).execute();
  if (rows.length === 0) return;
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  throw fail(MSG_GATEWAY.exposed(rows.map((r) => r.name), Number(n)));
}

async function assertNameFree(trx: Db, name: string, exceptId?: string): Promise<void> {
  const other = await trx
    .selectFrom('accessGateways')
    .select('id')
    .where('name', '=', name)
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .executeTakeFirst();
  if (other) throw fail(`接入网关名称「${name}」已存在`);
}

export default defineModule<GatewayDeps>('gateways', ({ db, clock, box, gateways, events }) => {
  async function detail(id: string) {
    const row = await db
      .selectFrom('accessGateways as g')
      .leftJoin('users as ou', 'ou.id', 'g.owner')
      .select([...PUBLIC, 'g.hostKey', 'g.password', 'g.privateKey', 'g.passphrase', ownerName])
      .where('g.id', '=', id)
      .executeTakeFirst();
    if (!row) throw fail(`接入网关不存在：${id}`);
    const { password, privateKey, passphrase, ...rest } = row;
    return { ...rest, hostKey: rest.hostKey ?? '', created: formatDate(rest.created), ...secretFlags({ password, privateKey, passphrase }), ...gateways.state(id) };
  }

  /** A password login needs its password (given now or kept); a key login's key is checked by nextSecrets. */
  function assertLogin(type: 'custom' | 'private-key', username: string, secrets: { password: string | null }): void {
    if (!username) throw fail('请输入授权账户');
    if (type === 'custom' && secrets.password === null) throw fail('请输入授权密码');
  }

  return [
    route({
      method: 'GET',
      path: '/access-gateways/paging',
      allow: 'granted',
      query: pagingQuery.extend({ name: z.string().max(128).optional(), ip: z.string().max(255).optional() }),
      handler: async ({ query }) => {
        const page = pageOf(query, { name: 'g.name', ip: 'g.ip', created: 'g.created' }, 'g.created');
        // 1.3.9 orders gateways the other way round from other lists: only 'descend' is DESC (contract §1.7).
        const direction = query.order === 'descend' ? 'desc' : 'asc';
        let base = db.selectFrom('accessGateways as g');
        if (query.name) base = base.where(contains('g.name', query.name));
        if (query.ip) base = base.where(contains('g.ip', query.ip));
        const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
        const rows = await base
          .leftJoin('users as ou', 'ou.id', 'g.owner')
          .select([...PUBLIC, ownerName])
          .orderBy(page.sort, direction)
          .orderBy('g.id', direction)
          .limit(page.limit)
          .offset(page.offset)
          .execute();
        // The live state from the registry: no handshake here (a gateway never checked is checked in the background).
        return paged(
          total,
          rows.map((g) => ({ ...g, created: formatDate(g.created), ...gateways.state(g.id) })),
        );
      },
    }),

    route({
      method: 'GET',
      path: '/access-gateways',
      allow: 'granted',
      handler: () => db.selectFrom('accessGateways').select(['id', 'name']).orderBy('name').orderBy('id').execute(),
    }),

    route({
      method: 'GET',
      path: '/access-gateways/:id',
      allow: 'granted',
      params: oneId,
      handler: ({ params }) => detail(params.id),
    }),

    route({
      method: 'POST',
      path: '/access-gateways',
      allow: 'granted',
      body,
      handler: async ({ body, principal }) => {
        const id = uuid();
        await prepareSecrets(box, body.accountType, body); // a passphrase's bcrypt runs in a worker (key-check.ts)
        const secrets = nextSecrets(box, body.accountType, body);
        assertLogin(body.accountType, body.username, secrets);
        await db.transaction().execute(async (trx) => {
          await assertNameFree(trx, body.name);
          await trx
            .insertInto('accessGateways')
            .values({ id, name: body.name, ip: body.ip, port: body.port, accountType: body.accountType, username: body.username, ...secrets, hostKey: body.hostKey || null, owner: principal.user.id, created: clock.now() })
            .execute();
        });
        await gateways.reload(id);
        return detail(id);
      },
    }),

    route({
      method: 'PUT',
      path: '/access-gateways/:id',
      allow: 'granted',
      params: oneId,
      body,
      handler: async ({ params, body, principal }) => {
        // A passphrase's bcrypt runs in a worker before the transaction (credentials/key-check.ts), never inside it.
        await prepareSecrets(box, body.accountType, body, await db.selectFrom('accessGateways').select(['password', 'privateKey', 'passphrase']).where('id', '=', params.id).executeTakeFirst());
        await db.transaction().execute(async (trx) => {
          const stored = await trx
            .selectFrom('accessGateways')
            .select(['ip', 'port', 'username', 'password', 'privateKey', 'passphrase', 'owner', 'hostKey'])
            .where('id', '=', params.id)
            .executeTakeFirst();
          if (!stored) throw fail(`接入网关不存在：${params.id}`);
          await assertNameFree(trx, body.name, params.id);
          // A secret goes only where it was entered for (issue 28, rule 2): the gateway logs in as soon as it is
          // saved, so its kept password must not follow it to another address or login, and the assets' secrets
          // travel through it. Its owner and the super admin may; anyone else gives the password again, and may not
          // move a gateway that assets without a host key to check use.
          const mayKeep = actsAsOwner(principal.user.id, stored.owner);
          const moved = stored.ip !== body.ip || stored.port !== body.port || stored.username !== body.username;
          if (body.accountType === 'custom') assertSecretStays(moved ? MSG_GATEWAY.moved : null, body.password, stored.password, undefined, mayKeep);
          if (moved && !mayKeep) await assertNoExposedAssets(trx, params.id);
          const secrets = nextSecrets(box, body.accountType, body, stored);
          assertLogin(body.accountType, body.username, secrets);
          // Its host key: another one is trusted only by whoever may send the secret there.
          const trusts = mayKeep || given(body.accountType === 'custom' ? body.password : body.privateKey) !== undefined;
          let hostKey = stored.hostKey;
          if (body.hostKey !== undefined && body.hostKey !== (stored.hostKey ?? '')) {
            if (!trusts) throw fail(MSG_HOST_KEY.trustRefused);
            hostKey = body.hostKey === '' ? null : body.hostKey;
          } else if (moved && trusts) hostKey = null;
          await trx
            .updateTable('accessGateways')
            .set({ name: body.name, ip: body.ip, port: body.port, accountType: body.accountType, username: body.username, ...secrets, hostKey })
            .where('id', '=', params.id)
            .execute();
        });
        // From the stored record, not the body (1.3.9 reloaded from the body and lost the kept secrets: quirk 20).
        await gateways.reload(params.id);
        return null;
      },
    }),

    route({
      method: 'DELETE',
      path: '/access-gateways/:id',
      allow: 'granted',
      params: idList,
      handler: async ({ params }) => {
        await db.transaction().execute(async (trx) => {
          const found = await trx.selectFrom('accessGateways').select('id').where('id', 'in', params.id).execute();
          requireAll('接入网关', params.id, found.map((g) => g.id));
          // Whoever still uses one refuses (the assets module: http/events.ts).
          await events.ask('gateways.deleting', { trx, ids: params.id });
          await trx.deleteFrom('accessGateways').where('id', 'in', params.id).execute();
        });
        for (const id of params.id) gateways.remove(id); // their tunnels close
        return null;
      },
    }),

    route({
      method: 'POST',
      path: '/access-gateways/:id/trust-host-key',
      allow: 'granted',
      params: oneId,
      body: z.object({ hostKey: zHostKey }),
      handler: async ({ params, body, principal }) => {
        // Trusting another host key sends the gateway's secret (and its assets' traffic) there: its owner's or the super admin's call.
        const hostKey = body.hostKey ? body.hostKey : null;
        await db.transaction().execute(async (trx) => {
          const found = await trx.selectFrom('accessGateways').select('owner').where('id', '=', params.id).executeTakeFirst();
          if (!found) throw fail(`接入网关不存在：${params.id}`);
          if (!actsAsOwner(principal.user.id, found.owner)) throw fail(MSG_HOST_KEY.trustRefused);
          await trx.updateTable('accessGateways').set({ hostKey }).where('id', '=', params.id).execute();
        });
        await gateways.reload(params.id);
        return { hostKey: hostKey ?? '' };
      },
    }),

    route({
      method: 'POST',
      path: '/access-gateways/:id/reconnect',
      allow: 'granted',
      params: oneId,
      handler: async ({ params }) => {
        const found = await db.selectFrom('accessGateways').select('id').where('id', '=', params.id).executeTakeFirst();
        if (!found) throw fail(`接入网关不存在：${params.id}`);
        return gateways.check(params.id); // a fresh handshake: {connected, message}
      },
    }),
  ];
});
