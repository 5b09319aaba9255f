import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/envelope.ts';
import { paged, pageOf, pagingQuery } from '../../http/paging.ts';
import { defineModule, route } from '../../http/routes.ts';
import { uuid } from '../../lib/ids.ts';
import { formatDate } from '../../lib/time.ts';
import { assertUserExists, ownerName, ownerQuery } from '../../policy/owner.ts';
import { contains, idList, oneId, requireAll, zName } from '../../http/ids.ts';
import { nextSecrets, prepareSecrets, secretFields, secretFlags, zUsername } from './account.ts';

// The face: what other modules may use of this one.
export { assertSecretStays, given, MAX_PRIVATE_KEY, nextSecrets, openSecrets, prepareSecrets, privateKeyProblem, type SealedSecrets, secretFields, secretFlags, zUsername } from './account.ts';
export { hostCheck, MSG_HOST_KEY, zHostKey } from './host-key.ts';
export { checkKeyOffLoop, isCostly, kdfProblem, unlockKey } from './key-check.ts';


/*
 * Credentials (contract §2.6, §3.5): reusable accounts for assets. Fixed 1.3.9 quirks: no answer carries a secret
 * (create answered the sealed values, detail the opened ones: quirk 7), real paging, method-correct gates (quirk 2).
 */

const body = z.object({
  name: zName(128),
  type: z.enum(['custom', 'private-key'], { message: 'expected custom or private-key' }),
  username: zUsername,
  ...secretFields,
});

const PUBLIC = ['c.id', 'c.name', 'c.type', 'c.username', 'c.owner', 'c.created'] as const;

async function assertNameFree(trx: Db, name: string, exceptId?: string): Promise<void> {
  const other = await trx
    .selectFrom('credentials')
    .select('id')
    .where('name', '=', name)
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .executeTakeFirst();
  if (other) throw fail(`授权凭证名称「${name}」已存在`);
}

async function detail(db: Db, id: string) {
  const row = await db
    .selectFrom('credentials as c')
    .leftJoin('users as ou', 'ou.id', 'c.owner')
    .select([...PUBLIC, 'c.password', 'c.privateKey', 'c.passphrase', ownerName])
    .where('c.id', '=', id)
    .executeTakeFirst();
  if (!row) throw fail(`授权凭证不存在：${id}`);
  const { password, privateKey, passphrase, ...rest } = row;
  return { ...rest, created: formatDate(rest.created), ...secretFlags({ password, privateKey, passphrase }) };
}

export default defineModule('credentials', ({ db, clock, box, events }) => [
  route({
    method: 'GET',
    path: '/credentials/paging',
    allow: 'granted',
    query: pagingQuery.extend({ name: z.string().max(128).optional() }),
    handler: async ({ query }) => {
      const page = pageOf(query, { name: 'c.name', created: 'c.created' }, 'c.created');
      let base = db.selectFrom('credentials as c');
      if (query.name) base = base.where(contains('c.name', query.name));
      const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await base
        .leftJoin('users as ou', 'ou.id', 'c.owner')
        .select([...PUBLIC, ownerName])
        .orderBy(page.sort, page.direction)
        .orderBy('c.id', page.direction)
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return paged(
        total,
        rows.map((c) => ({ ...c, created: formatDate(c.created) })),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/credentials',
    allow: 'granted',
    handler: () => db.selectFrom('credentials').select(['id', 'name']).orderBy('name').orderBy('id').execute(),
  }),

  route({
    method: 'GET',
    path: '/credentials/:id',
    allow: 'granted',
    params: oneId,
    handler: ({ params }) => detail(db, params.id),
  }),

  route({
    method: 'POST',
    path: '/credentials',
    allow: 'granted',
    body,
    handler: async ({ body, principal }) => {
      const id = uuid();
      await prepareSecrets(box, body.type, body); // a passphrase's bcrypt runs in a worker (key-check.ts)
      const secrets = nextSecrets(box, body.type, body);
      await db.transaction().execute(async (trx) => {
        await assertNameFree(trx, body.name);
        await trx
          .insertInto('credentials')
          .values({ id, name: body.name, type: body.type, username: body.username, ...secrets, owner: principal.user.id, created: clock.now() })
          .execute();
      });
      return detail(db, id); // the stored record without its secrets (1.3.9 answered them sealed: quirk 7)
    },
  }),

  route({
    method: 'PUT',
    path: '/credentials/:id',
    allow: 'granted',
    params: oneId,
    body,
    handler: async ({ params, body }) => {
      // A passphrase's bcrypt runs in a worker before the transaction (key-check.ts), never inside it.
      await prepareSecrets(box, body.type, body, await db.selectFrom('credentials').select(['password', 'privateKey', 'passphrase']).where('id', '=', params.id).executeTakeFirst());
      await db.transaction().execute(async (trx) => {
        const stored = await trx.selectFrom('credentials').select(['password', 'privateKey', 'passphrase']).where('id', '=', params.id).executeTakeFirst();
        if (!stored) throw fail(`授权凭证不存在：${params.id}`);
        await assertNameFree(trx, body.name, params.id);
        const secrets = nextSecrets(box, body.type, body, stored);
        await trx.updateTable('credentials').set({ name: body.name, type: body.type, username: body.username, ...secrets }).where('id', '=', params.id).execute();
      });
      return null;
    },
  }),

  route({
    method: 'DELETE',
    path: '/credentials/:id',
    allow: 'granted',
    params: idList,
    handler: async ({ params }) => {
      await db.transaction().execute(async (trx) => {
        const found = await trx.selectFrom('credentials').select('id').where('id', 'in', params.id).execute();
        requireAll('授权凭证', params.id, found.map((c) => c.id));
        // Whoever still uses one refuses (the assets module: http/events.ts).
        await events.ask('credentials.deleting', { trx, ids: params.id });
        await trx.deleteFrom('credentials').where('id', 'in', params.id).execute();
      });
      return null;
    },
  }),

  route({
    method: 'POST',
    path: '/credentials/:id/change-owner',
    // As in 1.3.9, no key grants it: the super admin only.
    allow: 'super-admin',
    params: oneId,
    query: ownerQuery,
    handler: async ({ params, query }) => {
      await db.transaction().execute(async (trx) => {
        const found = await trx.selectFrom('credentials').select('id').where('id', '=', params.id).executeTakeFirst();
        if (!found) throw fail(`授权凭证不存在：${params.id}`);
        await assertUserExists(trx, query.owner);
        await trx.updateTable('credentials').set({ owner: query.owner }).where('id', '=', params.id).execute();
      });
      return '';
    },
  }),
]);
