import { z } from 'zod';
import { fail } from '../../http/envelope.ts';
import { defineModule, route } from '../../http/routes.ts';
import { hashPassword, PASSWORD_MSG, passwordProblem, verifyPassword } from '../../lib/password.ts';
import { formatDate, ZERO_DATE } from '../../lib/time.ts';
import { accountInfo } from '../auth/index.ts';
import { LOCKED_MESSAGE, Lockout } from '../auth/index.ts';
import { endAllTokens, endLoginTokens, issueAccessToken, readAccessToken } from '../../permissions/tokens.ts';
import { acceptTotp, newTotpSecret, TOTP_SECRET, totpQr } from '../auth/index.ts';

const changePasswordBody = z.object({ oldPassword: z.string().max(1024), newPassword: z.string().max(1024) });
const confirmTotpBody = z.object({ secret: z.string().regex(TOTP_SECRET, 'expected a base32 secret'), totp: z.string().max(32) });

/**
 * /account/*: the caller's own account; any user type. The password, TOTP and access-token routes need a login
 * token (`loginOnly`): a leaked personal access token cannot take the account over.
 */
export default defineModule('account', ({ db, clock, config, box }) => {
  const lockout = new Lockout(db, clock);
  return [
    route({
      method: 'GET',
      path: '/account/info',
      allow: 'authenticated',
      handler: async ({ principal, lng }) => accountInfo(principal.user, await principal.access(), lng),
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
      loginOnly: true,
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
        // Every token of the account ends, the personal access token included, in the same write.
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('users').set({ password: hash }).where('id', '=', principal.user.id).execute();
          await endAllTokens(trx, principal.user.id, clock.now());
        });
        await attempt.succeeded();
        return null;
      },
    }),

    route({
      method: 'GET',
      path: '/account/access-token',
      allow: 'authenticated',
      loginOnly: true,
      // The token in full once, within minutes of its creation; its hint (`forever-…a1b2`) afterwards.
      handler: async ({ principal }) => {
        const row = await readAccessToken(db, box, principal.user.id, clock.now());
        return row ? { ...row, created: formatDate(row.created) } : { id: '', userId: '', token: '', created: ZERO_DATE };
      },
    }),

    route({
      method: 'POST',
      path: '/account/access-token',
      allow: 'authenticated',
      loginOnly: true,
      handler: async ({ principal }) => {
        await issueAccessToken(db, box, principal.user.id, clock.now());
        return null;
      },
    }),

    route({
      method: 'DELETE',
      path: '/account/access-token',
      allow: 'authenticated',
      loginOnly: true,
      handler: async ({ principal }) => {
        await db.deleteFrom('accessToken').where('userId', '=', principal.user.id).execute();
        return null;
      },
    }),

    route({
      method: 'GET',
      path: '/account/reload-totp',
      allow: 'authenticated',
      loginOnly: true,
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
      loginOnly: true,
      body: confirmTotpBody,
      handler: async ({ principal, body }) => {
        // The code is used up like a login code (no replay), and the secret is stored sealed, in the same write.
        const accepted = await acceptTotp(db, principal.user.id, body.secret, body.totp, clock.now(), { totpSecret: box.encrypt(body.secret) });
        if (!accepted) throw fail('TOTP 验证失败，请重试');
        return null;
      },
    }),

    route({
      method: 'POST',
      path: '/account/reset-totp',
      allow: 'authenticated',
      loginOnly: true,
      handler: async ({ principal }) => {
        await db.updateTable('users').set({ totpSecret: '-' }).where('id', '=', principal.user.id).execute();
        return '';
      },
    }),
  ];
});
