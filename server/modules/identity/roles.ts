import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { Role } from '../../db/schema.ts';
import { fail } from '../../http/envelope.ts';
import { paged, pageOf, pagingQuery } from '../../http/paging.ts';
import { type Deps, type RouteDef, route } from '../../http/routes.ts';
import { sign, uuid } from '../../lib/ids.ts';
import { formatDate } from '../../lib/time.ts';
import type { Catalogue } from '../../../shared/manifest.ts';
import { SUPER_ADMIN_ID } from '../../permissions/effective.ts';
import { actorOf } from '../../policy/containment.ts';
import { contains, idList, oneId, requireAll, zName } from '../../http/ids.ts';

/** Only keys some plugin manifest declares (the catalogue) may be given to a role. */
const menuRefOf = (catalogue: Catalogue) =>
  z.object({
    menuId: z
      .string()
      .max(64, 'at most 64 characters')
      .refine((key) => catalogue.has(key), { error: (iss) => `unknown menu key "${String(iss.input)}"` }),
    checked: z.boolean(),
  });

// The console sends each checked key plus its ancestors half-checked, so a key may come twice.
const roleBodyOf = (catalogue: Catalogue) => z.object({ name: zName(64), menus: z.array(menuRefOf(catalogue)).max(1000, 'at most 1000 entries') });
type RoleBody = z.output<ReturnType<typeof roleBodyOf>>;

const pagingRoles = pagingQuery.extend({
  name: z.string().max(64).optional(),
  type: z.enum(['default', 'new', ''], { message: 'expected default or new' }).optional(),
});

const wireRole = (r: Role) => ({ ...r, deletable: r.deletable === 1, modifiable: r.modifiable === 1, created: formatDate(r.created), menus: null });

/** One ref per key; a key sent both checked and half-checked counts as checked. */
function uniqueRefs(catalogue: Catalogue, menus: RoleBody['menus']): { menuId: string; checked: boolean }[] {
  const byKey = new Map<string, boolean>();
  for (const m of menus) byKey.set(m.menuId, (byKey.get(m.menuId) ?? false) || m.checked);
  return catalogue.inOrder(byKey.keys()).map((menuId) => ({ menuId, checked: byKey.get(menuId)! }));
}

async function assertNameFree(trx: Db, name: string, exceptId?: string): Promise<void> {
  const other = await trx
    .selectFrom('roles')
    .select('id')
    .where('name', '=', name)
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .executeTakeFirst();
  if (other) throw fail(`角色名称「${name}」已存在`);
}

async function setMenus(trx: Db, catalogue: Catalogue, roleId: string, menus: RoleBody['menus']): Promise<void> {
  await trx.deleteFrom('rolesMenusRef').where('roleId', '=', roleId).execute();
  const refs = uniqueRefs(catalogue, menus);
  if (refs.length) {
    await trx
      .insertInto('rolesMenusRef')
      .values(refs.map((m) => ({ id: sign([roleId, m.menuId]), roleId, menuId: m.menuId, checked: m.checked ? 1 : 0 })))
      .execute();
  }
}

/** Roles: their menu refs (checked or half-checked) are what their admins may see and call, from the next request on. */
export const roleRoutes = ({ db, clock, catalogue }: Deps): RouteDef[] => {
  const roleBody = roleBodyOf(catalogue);
  return [
  route({
    method: 'GET',
    path: '/roles/paging',
    allow: 'granted',
    query: pagingRoles,
    handler: async ({ query }) => {
      const page = pageOf(query, { name: 'name', type: 'type', created: 'created' }, 'created');
      let base = db.selectFrom('roles');
      if (query.name) base = base.where(contains('name', query.name));
      if (query.type) base = base.where('type', '=', query.type);
      const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await base.selectAll().orderBy(page.sort, page.direction).orderBy('id', page.direction).limit(page.limit).offset(page.offset).execute();
      return paged(total, rows.map(wireRole));
    },
  }),

  route({
    method: 'GET',
    path: '/roles',
    allow: 'granted',
    handler: async () => (await db.selectFrom('roles').selectAll().orderBy('name', 'desc').orderBy('id').execute()).map(wireRole),
  }),

  route({
    method: 'GET',
    path: '/roles/:id',
    allow: 'granted',
    params: oneId,
    handler: async ({ params }) => {
      const role = await db.selectFrom('roles').selectAll().where('id', '=', params.id).executeTakeFirst();
      if (!role) throw fail(`角色不存在：${params.id}`);
      const refs = await db.selectFrom('rolesMenusRef').select(['menuId', 'checked']).where('roleId', '=', role.id).execute();
      const checked = new Map(refs.map((r) => [r.menuId, r.checked === 1]));
      // id and roleId blanked, as 1.3.9 answers them.
      const menus = catalogue.inOrder(checked.keys()).map((menuId) => ({ id: '', roleId: '', menuId, checked: checked.get(menuId)! }));
      return { ...wireRole(role), menus };
    },
  }),

  route({
    method: 'POST',
    path: '/roles',
    allow: 'granted',
    body: roleBody,
    handler: async ({ body, principal }) => {
      const id = uuid();
      (await actorOf(principal, catalogue, clock.now())).mayGrant(body.menus.map((m) => m.menuId));
      await db.transaction().execute(async (trx) => {
        await assertNameFree(trx, body.name);
        await trx.insertInto('roles').values({ id, name: body.name, type: 'new', deletable: 1, modifiable: 1, created: clock.now() }).execute();
        await setMenus(trx, catalogue, id, body.menus);
      });
      return '';
    },
  }),

  route({
    method: 'PUT',
    path: '/roles/:id',
    allow: 'granted',
    params: oneId,
    body: roleBody,
    handler: async ({ params, body, principal }) => {
      const actor = await actorOf(principal, catalogue, clock.now());
      await db.transaction().execute(async (trx) => {
        const role = await trx.selectFrom('roles').select(['name', 'modifiable']).where('id', '=', params.id).executeTakeFirst();
        if (!role) throw fail(`角色不存在：${params.id}`);
        if (!role.modifiable) throw fail(`内置角色「${role.name}」不允许修改`);
        const held = await trx.selectFrom('rolesMenusRef').select('menuId').where('roleId', '=', params.id).execute();
        // Keys the caller does not hold stay as they are: neither added nor removed (checked or half-checked alike).
        actor.mayEditRoleKeys(
          held.map((r) => r.menuId),
          body.menus.map((m) => m.menuId),
        );
        // A role's keys are its holders' rights: editing them acts on every holder (the super admin's rights do not
        // come from roles).
        const holders = await trx.selectFrom('usersRolesRef').select('userId').where('roleId', '=', params.id).where('userId', '!=', SUPER_ADMIN_ID).execute();
        await actor.mayActOn(
          trx,
          holders.map((h) => h.userId),
          'role',
        );
        await assertNameFree(trx, body.name, params.id);
        await trx.updateTable('roles').set({ name: body.name }).where('id', '=', params.id).execute();
        await setMenus(trx, catalogue, params.id, body.menus);
      });
      return '';
    },
  }),

  route({
    method: 'DELETE',
    path: '/roles/:id',
    allow: 'granted',
    params: idList,
    handler: async ({ params }) => {
      const ids = params.id;
      await db.transaction().execute(async (trx) => {
        const found = await trx.selectFrom('roles').select(['id', 'name', 'deletable']).where('id', 'in', ids).execute();
        requireAll('角色', ids, found.map((r) => r.id));
        const builtIn = found.find((r) => !r.deletable);
        if (builtIn) throw fail(`内置角色「${builtIn.name}」不允许删除`);
        // A role still held is not deleted from under its accounts (1.3.9 left admins with no role at all).
        const holders = await trx
          .selectFrom('usersRolesRef')
          .select((eb) => ['roleId', eb.fn.count<number>('userId').as('accounts')])
          .where('roleId', 'in', ids)
          .groupBy('roleId')
          .execute();
        if (holders.length) {
          const nameOf = new Map(found.map((r) => [r.id, r.name]));
          throw fail(holders.map((hd) => `角色「${nameOf.get(hd.roleId)}」仍被 ${hd.accounts} 个账户使用，不能删除`).join('；'));
        }
        await trx.deleteFrom('rolesMenusRef').where('roleId', 'in', ids).execute();
        await trx.deleteFrom('roles').where('id', 'in', ids).execute();
      });
      return null;
    },
  }),
];
};
