import { z } from 'zod';
import { defineManifest, type KeyMap } from '../../shared/manifest.ts';
import { fail } from '../../server/http/envelope.ts';
import { multipartError } from '../../server/http/multipart.ts';
import { paged, pageOf, pagingQuery } from '../../server/http/paging.ts';
import { defineModule, route } from '../../server/http/routes.ts';
import { formatDate } from '../../server/lib/time.ts';
import type { HarnessOptions } from './harness.ts';

/** The probe's permission keys: one key per method of /probe, and a paged log (the paging helper's test). */
export const probeManifest = defineManifest({
  id: 'probe',
  menus: [
    { key: 'probe', group: 'ops', label: { 'zh-CN': '探针', 'en-US': 'Probe' }, grants: ['GET /probe'] },
    { key: 'probe-log', group: 'log-audit', label: { 'zh-CN': '探针日志', 'en-US': 'Probe log' }, grants: ['GET /probe-logs/paging'] },
  ],
  actions: [{ key: 'probe-del', parent: 'probe', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /probe/:id'] }],
});

declare module '../../shared/manifest.ts' {
  interface PermissionKeys extends KeyMap<typeof probeManifest> {}
}

/**
 * Test-only routes that exercise the route helper the way later modules will: method-specific menu keys,
 * a paged list with a field whitelist, a date field. Mounted by `startHarness({ modules: [probe] })`.
 */
export const probe = defineModule('probe', ({ db }) => [
  route({ method: 'GET', path: '/probe', allow: 'granted', handler: () => 'read' }),
  route({
    method: 'DELETE',
    path: '/probe/:id',
    allow: 'granted',
    params: z.object({ id: z.string().max(64) }),
    handler: ({ params }) => params.id,
  }),
  route({ method: 'GET', path: '/probe/super', allow: 'super-admin', handler: () => 'super only' }),
  route({
    method: 'GET',
    path: '/probe-logs/paging',
    allow: 'granted',
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
  route({
    method: 'POST',
    path: '/probe/upload',
    allow: 'authenticated',
    upload: { maxFiles: 2, maxFileBytes: 1024 },
    body: z.object({ note: z.string().max(10).optional() }),
    handler: ({ body, req }) => ({ note: body.note ?? '', files: req.uploads.map((f) => ({ field: f.field, filename: f.filename, mimetype: f.mimetype, text: f.data.toString('utf8') })) }),
  }),
  route({
    method: 'POST',
    path: '/probe/stream',
    allow: 'authenticated',
    fileStream: { field: 'file', maxFileBytes: 1024 },
    query: z.object({ refuse: z.literal('1').optional() }),
    body: z.object({ note: z.string().max(10).optional() }),
    handler: async ({ body, query, req }) => {
      const upload = req.fileStream;
      if (!upload) return { note: body.note ?? '', file: null };
      // Refused before reading: the kit drops the file so the request still ends.
      if (query.refuse) throw fail('refused');
      upload.take();
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of upload.file) chunks.push(chunk as Buffer);
      } catch (err) {
        throw multipartError(err); // the body broke off inside the file
      }
      const truncated = upload.file.truncated === true;
      await upload.finish(); // over the limit: a 413
      return { note: body.note ?? '', file: { filename: upload.filename, text: Buffer.concat(chunks).toString('utf8'), truncated } };
    },
  }),
]);

/** Harness options that mount the probe: its routes and its keys. */
export const withProbe: Pick<HarnessOptions, 'modules' | 'manifests'> = { modules: [probe], manifests: [probeManifest] };
