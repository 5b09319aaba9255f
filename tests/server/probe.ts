import { z } from 'zod';
import { paged, pageOf, pagingQuery } from '../../server/http/paging.ts';
import { defineModule, route } from '../../server/http/routes.ts';
import { formatDate } from '../../server/lib/time.ts';

/**
 * Test-only routes that exercise the route helper the way later modules will: method-specific menu keys,
 * a paged list with a field whitelist, a date field. Mounted by `startHarness({ modules: [probe] })`.
 */
export const probe = defineModule('probe', ({ db }) => [
  route({ method: 'GET', path: '/probe', allow: ['user'], handler: () => 'read' }),
  route({
    method: 'DELETE',
    path: '/probe/:id',
    allow: ['user-del'],
    params: z.object({ id: z.string().max(64) }),
    handler: ({ params }) => params.id,
  }),
  route({ method: 'GET', path: '/probe/super', allow: [], handler: () => 'super only' }),
  route({
    method: 'GET',
    path: '/login-logs/paging',
    allow: ['login-log'],
    query: pagingQuery.extend({ username: z.string().max(64).optional() }),
    handler: async ({ query }) => {
      const page = pageOf(query, { username: 'username', loginTime: 'loginTime' }, 'loginTime');
      let base = db.selectFrom('loginLogs');
      if (query.username) base = base.where('username', 'like', `%${query.username}%`);
      const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await base.select(['id', 'username', 'loginTime']).orderBy(page.sort, page.direction).orderBy('id').limit(page.limit).offset(page.offset).execute();
      return paged(
        total,
        rows.map((r) => ({ ...r, loginTime: formatDate(r.loginTime) })),
      );
    },
  }),
]);
