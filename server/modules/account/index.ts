import { z } from 'zod';
import { fail } from '../../http/envelope.ts';
import { defineModule, route } from '../../http/routes.ts';
import { uuid } from '../../lib/ids.ts';
import { hashPassword, PASSWORD_MSG, passwordProblem, verifyPassword } from '../../lib/password.ts';
import { formatDate, ZERO_DATE } from '../../lib/time.ts';
import { accountInfo } from '../auth/info.ts';
import { LOCKED_MESSAGE, Lockout } from '../auth/lockout.ts';
import { ACCESS_TOKEN_PREFIX, endLoginTokens } from '../auth/tokens.ts';
import { checkTotp, newTotpSecret, TOTP_SECRET, totpQr } from '../auth/totp.ts';

const changePasswordBody = z.object({ oldPassword: z.string().max(1024), newPassword: z.string().max(1024) });
const confirmTotpBody = z.object({ secret: z.string().regex(TOTP_SECRET, 'expected a base32 secret'), totp: z.string().max(32) });

/** /account/*: the caller's own account; any user type. */
export default defineModule('account', ({ db, clock, config }) => {
  const lockout = new Lockout(db, clock);
  return [
    route({
      method: 'GET',
      path: '/account/info',
      allow: 'authenticated',
      handler: async ({ principal }) => accountInfo(principal.user, await principal.access()),
    }),

    route({
      method: 'POST',
      path: '/account/logout',
      allow: 'authenticated',
      handler: async ({ principal }) => {
        // A personal access token is not a session: logging out with it ends nothing.
        if (principal.tokenId) await endLoginTokens(db, { tokenId: principal.tokenId }, clock.now());
        return null;
      },
    }),

    route({
      method: 'POST',
      path: '/account/change-password',
      allow: 'authenticated',
      body: changePasswordBody,
      handler: async ({ principal, body, req }) => {
        const problem = passwordProblem(body.newPassword);
        if (problem) throw fail(problem === PASSWORD_MSG.empty ? '请输入新密码' : problem);
        // Wrong old passwords count toward the login lock-out (same scopes): a stolen session cannot guess freely.
        const attempt = await lockout.reserve(req.ip, principal.user.username);
        if (!attempt) throw fail(LOCKED_MESSAGE);
        // Checked against the hash in the database now, not a login-time snapshot (quirk 8).
        const row = await db.selectFrom('users').select('password').where('id', '=', principal.user.id).executeTakeFirstOrThrow();
        if (!(await verifyPassword(body.oldPassword, row.password))) {
          await attempt.failed();
          throw fail('您输入的原密码不正确');
        }
        const hash = await hashPassword(body.newPassword);
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('users').set({ password: hash }).where('id', '=', principal.user.id).execute();
          await endLoginTokens(trx, { userId: principal.user.id }, clock.now());
        });
        await attempt.succeeded();
        return null;
      },
    }),

    route({
      method: 'GET',
      path: '/account/access-token',
      allow: 'authenticated',
      handler: async ({ principal }) => {
        const row = await db.selectFrom('accessToken').selectAll().where('userId', '=', principal.user.id).executeTakeFirst();
        return row ? { ...row, created: formatDate(row.created) } : { id: '', userId: '', token: '', created: ZERO_DATE };
      },
    }),

    route({
      method: 'POST',
      path: '/account/access-token',
      allow: 'authenticated',
      handler: async ({ principal }) => {
        const userId = principal.user.id;
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('accessToken').where('userId', '=', userId).execute();
          await trx.insertInto('accessToken').values({ id: uuid(), userId, token: ACCESS_TOKEN_PREFIX + uuid(), created: clock.now() }).execute();
        });
        return null;
      },
    }),

    route({
      method: 'DELETE',
      path: '/account/access-token',
      allow: 'authenticated',
      handler: async ({ principal }) => {
        await db.deleteFrom('accessToken').where('userId', '=', principal.user.id).execute();
        return null;
      },
    }),

    route({
      method: 'GET',
      path: '/account/reload-totp',
      allow: 'authenticated',
      // Nothing is stored until confirm-totp proves the authenticator has the secret.
      handler: async ({ principal }) => {
        const secret = newTotpSecret();
        return { qr: await totpQr(config.brand.name, principal.user.username, secret), secret };
      },
    }),

    route({
      method: 'POST',
      path: '/account/confirm-totp',
      allow: 'authenticated',
      body: confirmTotpBody,
      handler: async ({ principal, body }) => {
        if (!(await checkTotp(body.secret, body.totp, clock.now()))) throw fail('TOTP 验证失败，请重试');
        await db.updateTable('users').set({ totpSecret: body.secret }).where('id', '=', principal.user.id).execute();
        return null;
      },
    }),

    route({
      method: 'POST',
      path: '/account/reset-totp',
      allow: 'authenticated',
      handler: async ({ principal }) => {
        await db.updateTable('users').set({ totpSecret: '-' }).where('id', '=', principal.user.id).execute();
        return '';
      },
    }),
  ];
});
