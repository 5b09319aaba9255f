import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { User } from '../../db/schema.ts';
import { totpEnabled } from '../../permissions/principal.ts';
import { fail } from '../../http/envelope.ts';
import { paged, pageOf, pagingQuery } from '../../http/paging.ts';
import { type Deps, type RouteDef, route } from '../../http/routes.ts';
import { uuid } from '../../lib/ids.ts';
import type { Lng } from '../../lib/i18n.ts';
import { hashPassword, passwordProblem } from '../../lib/password.ts';
import { usernameKey, zUsername } from '../../lib/username.ts';
import { formatDate } from '../../lib/time.ts';
import { endAllTokens } from '../../permissions/tokens.ts';
import { SUPER_ADMIN_ID, shownNickname, storedNickname } from '../../permissions/effective.ts';
import { type Actor, actorOf } from '../../policy/containment.ts';
import { contains, idList, oneId, requireAll, zIdArray, zName } from '../../http/ids.ts';

const MSG = {
  self: '不能操作自身账户',
  deleteSelf: '不允许删除自身账户',
  deleteSuper: '不允许删除超级管理员账户',
  selfRoles: '不能修改自身账户的角色',
  superType: '超级管理员必须是管理用户',
  noRoles: '请选择用户角色',
  usernameTaken: (u: string) => `登录账号「${u}」已被使用`,
};

const userFields = {
  username: zUsername,
  nickname: zName(64),
  type: z.enum(['user', 'admin'], { message: 'expected user or admin' }),
  mail: z
    .union([z.literal(''), z.email('expected an email address').max(128, 'at most 128 characters')])
    .nullish()
    .transform((v) => v ?? ''),
  roles: zIdArray,
};
// Password rules (length, bcrypt's 72 bytes) are business answers with the console's message: passwordProblem().
const createBody = z.object({ ...userFields, password: z.string().max(1024, 'at most 1024 characters') });
// No password here: the admin sets it with change-password; one sent by a client is ignored (quirk 4/20).
const updateBody = z.object(userFields);
type UserFields = z.output<typeof updateBody>;

const pagingUsers = pagingQuery.extend({
  username: z.string().max(64).optional(),
  nickname: z.string().max(64).optional(),
  mail: z.string().max(128).optional(),
  online: z.enum(['true', 'false'], { message: 'expected true or false' }).optional(),
});

/** Columns a client may see; password and TOTP secret never leave. */
const PUBLIC = ['id', 'username', 'nickname', 'totpSecret', 'mail', 'online', 'status', 'created', 'type', 'source'] as const;
type PublicRow = Pick<User, (typeof PUBLIC)[number]>;

/**
 * The row for the wire, as the caller reads it: `totpSecret` becomes '1'/'0' (§3.1), the secret itself stays here;
 * the super admin's seeded nickname is said in `lng`.
 */
const wireUser = (u: PublicRow, lng: Lng) => ({
  ...u,
  nickname: shownNickname(u.id, u.nickname, lng),
  totpSecret: totpEnabled(u.totpSecret) ? '1' : '0',
  online: u.online === 1,
  created: formatDate(u.created),
});

async function userDetail(db: Db, id: string, lng: Lng) {
  const u = await db.selectFrom('users').select(PUBLIC).where('id', '=', id).executeTakeFirst();
  if (!u) throw fail(`用户不存在：${id}`);
  const roles = await db.selectFrom('usersRolesRef').select('roleId').where('userId', '=', id).orderBy('roleId').execute();
  return { ...wireUser(u, lng), roles: roles.map((r) => r.roleId) };
}

/**
 * Role refs a user of these fields should have: only admins hold roles (at least one: a role-less admin sees
 * nothing), each must exist, and every key they carry must be held by the caller (containment.ts). All roles are
 * checked, not only added ones: a target the caller may act on holds nothing beyond the caller anyway, and a
 * `user`-type account turned admin must not keep a wider role it carried unused.
 */
async function checkedRoles(trx: Db, actor: Actor, id: string, fields: UserFields): Promise<string[]> {
  if (fields.type === 'user') return [];
  if (fields.roles.length === 0 && id !== SUPER_ADMIN_ID) throw fail(MSG.noRoles);
  if (fields.roles.length) {
    const found = await trx.selectFrom('roles').select('id').where('id', 'in', fields.roles).execute();
    requireAll('角色', fields.roles, found.map((r) => r.id));
    await actor.mayGrantRoles(trx, fields.roles);
  }
  return fields.roles;
}

/** Usernames are unique ignoring case and Unicode composition (users.username_key, lib/username.ts). */
async function assertUsernameFree(trx: Db, username: string, exceptId?: string): Promise<void> {
  const other = await trx
    .selectFrom('users')
    .select('id')
    .where('usernameKey', '=', usernameKey(username))
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .executeTakeFirst();
  // `field` names the refused input: the console shows the message on it.
  if (other) throw fail(MSG.usernameTaken(username), { field: 'username' });
}

async function setRoles(trx: Db, userId: string, roles: readonly string[]): Promise<void> {
  await trx.deleteFrom('usersRolesRef').where('userId', '=', userId).execute();
  if (roles.length) await trx.insertInto('usersRolesRef').values(roles.map((roleId) => ({ id: uuid(), userId, roleId }))).execute();
}

export const userRoutes = ({ db, clock, catalogue, events }: Deps): RouteDef[] => [
  route({
    method: 'GET',
    path: '/users/paging',
    allow: 'granted',
    query: pagingUsers,
    handler: async ({ query, lng }) => {
      const page = pageOf(query, { username: 'username', nickname: 'nickname', created: 'created', mail: 'mail', online: 'online', status: 'status' }, 'created');
      let base = db.selectFrom('users');
      if (query.username) base = base.where(contains('username', query.username));
      if (query.nickname) base = base.where(contains('nickname', query.nickname));
      if (query.mail) base = base.where(contains('mail', query.mail));
      if (query.online) base = base.where('online', '=', query.online === 'true' ? 1 : 0);
      const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await base.select(PUBLIC).orderBy(page.sort, page.direction).orderBy('id', page.direction).limit(page.limit).offset(page.offset).execute();
      // Asset sharing does not exist yet: nobody shares an asset.
      return paged(
        total,
        rows.map((u) => ({ ...wireUser(u, lng), sharerAssetCount: 0 })),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/users',
    allow: 'granted',
    handler: async ({ lng }) =>
      (await db.selectFrom('users').select(['id', 'username', 'nickname']).orderBy('nickname').orderBy('id').execute()).map((u) => ({
        ...u,
        nickname: shownNickname(u.id, u.nickname, lng),
      })),
  }),

  route({
    method: 'POST',
    path: '/users',
    allow: 'granted',
    body: createBody,
    handler: async ({ body, principal, lng }) => {
      const id = uuid();
      const problem = passwordProblem(body.password);
      if (problem) throw fail(problem);
      const password = await hashPassword(body.password); // before the transaction: bcrypt is slow
      const actor = await actorOf(principal, catalogue, clock.now());
      await db.transaction().execute(async (trx) => {
        await assertUsernameFree(trx, body.username);
        const roles = await checkedRoles(trx, actor, id, body);
        await trx
          .insertInto('users')
          .values({ id, username: body.username, usernameKey: usernameKey(body.username), password, nickname: body.nickname, totpSecret: '-', online: 0, status: 'enabled', type: body.type, mail: body.mail, source: '', created: clock.now() })
          .execute();
        await setRoles(trx, id, roles);
      });
      return userDetail(db, id, lng); // the stored user, never the request (1.3.9 echoed the plaintext password: quirk 4)
    },
  }),

  route({
    method: 'GET',
    path: '/users/:id',
    allow: 'granted',
    params: oneId,
    handler: ({ params, lng }) => userDetail(db, params.id, lng),
  }),

  route({
    method: 'PUT',
    path: '/users/:id',
    allow: 'granted',
    params: oneId,
    body: updateBody,
    // The id comes from the path only (quirk 20).
    handler: async ({ params, body, principal }) => {
      const { id } = params;
      const actor = await actorOf(principal, catalogue, clock.now());
      await db.transaction().execute(async (trx) => {
        await actor.mayActOn(trx, [id], 'edit');
        if (id === SUPER_ADMIN_ID && body.type !== 'admin') throw fail(MSG.superType);
        if (id === actor.id && body.type !== 'admin') throw fail(MSG.self); // no locking oneself out
        await assertUsernameFree(trx, body.username, id);
        const roles = await checkedRoles(trx, actor, id, body);
        if (id === actor.id) {
          // Nor demoting oneself by dropping one's own roles (adding is a grant, checked above).
          const held = (await trx.selectFrom('usersRolesRef').select('roleId').where('userId', '=', id).execute()).map((r) => r.roleId);
          if (held.length !== roles.length || held.some((r) => !roles.includes(r))) throw fail(MSG.selfRoles);
        }
        await trx.updateTable('users').set({ username: body.username, usernameKey: usernameKey(body.username), nickname: storedNickname(id, body.nickname), type: body.type, mail: body.mail }).where('id', '=', id).execute();
        await setRoles(trx, id, roles);
      });
      return null;
    },
  }),

  route({
    method: 'PATCH',
    path: '/users/:id/status',
    allow: 'granted',
    params: oneId,
    query: z.object({ status: z.enum(['enabled', 'disabled'], { message: 'expected enabled or disabled' }) }),
    handler: async ({ params, query, principal }) => {
      if (params.id === principal.user.id) throw fail(MSG.self);
      const actor = await actorOf(principal, catalogue, clock.now());
      await db.transaction().execute(async (trx) => {
        await actor.mayActOn(trx, [params.id], 'status');
        await trx.updateTable('users').set({ status: query.status }).where('id', '=', params.id).execute();
        // Disabled users' tokens are refused from now on anyway (permissions/principal.ts); ending them also marks them offline,
        // and the access token does not come back to life with a later enable.
        if (query.status === 'disabled') await endAllTokens(trx, params.id, clock.now());
      });
      // …and the terminals it opened end too (a token is needed to open one, not to keep it).
      if (query.status === 'disabled') await events.emit('accounts.ended', { userIds: [params.id], why: 'disabled' });
      return null;
    },
  }),

  route({
    method: 'DELETE',
    path: '/users/:id',
    allow: 'granted',
    params: idList,
    handler: async ({ params, principal }) => {
      const ids = params.id;
      if (ids.includes(principal.user.id)) throw fail(MSG.deleteSelf);
      if (ids.includes(SUPER_ADMIN_ID)) throw fail(MSG.deleteSuper);
      const actor = await actorOf(principal, catalogue, clock.now());
      // One transaction: an unknown id, an account beyond the caller or a failure half-way deletes nothing.
      await db.transaction().execute(async (trx) => {
        await actor.mayActOn(trx, ids, 'delete');
        await trx.deleteFrom('userGroupMembers').where('userId', 'in', ids).execute();
        await trx.deleteFrom('usersRolesRef').where('userId', 'in', ids).execute();
        for (const userId of ids) await endAllTokens(trx, userId, clock.now());
        await trx.deleteFrom('users').where('id', 'in', ids).execute();
      });
      await events.emit('accounts.ended', { userIds: ids, why: 'deleted' });
      return null;
    },
  }),

  route({
    method: 'POST',
    path: '/users/:id/change-password',
    allow: 'granted',
    params: idList,
    // JSON, urlencoded or multipart (the 1.3.9 console posts FormData); absent/empty is the console's own message.
    body: z.object({ password: z.string().max(1024, 'at most 1024 characters').optional() }),
    handler: async ({ params, body, principal }) => {
      const password = body.password ?? '';
      const problem = passwordProblem(password);
      if (problem) throw fail(problem);
      const actor = await actorOf(principal, catalogue, clock.now());
      const hash = await hashPassword(password);
      await db.transaction().execute(async (trx) => {
        await actor.mayActOn(trx, params.id, 'password');
        await trx.updateTable('users').set({ password: hash }).where('id', 'in', params.id).execute();
        // Every token ends, personal access tokens included.
        for (const userId of params.id) await endAllTokens(trx, userId, clock.now());
      });
      return '';
    },
  }),

  route({
    method: 'POST',
    path: '/users/:id/reset-totp',
    allow: 'granted',
    params: idList,
    handler: async ({ params, principal }) => {
      const actor = await actorOf(principal, catalogue, clock.now());
      await db.transaction().execute(async (trx) => {
        await actor.mayActOn(trx, params.id, 'totp');
        await trx.updateTable('users').set({ totpSecret: '-' }).where('id', 'in', params.id).execute();
      });
      return '';
    },
  }),
];
