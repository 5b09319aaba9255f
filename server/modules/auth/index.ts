import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { totpEnabled } from '../../permissions/principal.ts';
import { ApiError, fail } from '../../http/envelope.ts';
import { defineModule, route } from '../../http/routes.ts';
import { recordLogin } from '../logs/index.ts';
import { hashPassword, tooLongForBcrypt, verifyPassword } from '../../lib/password.ts';
import { usernameKey } from '../../lib/username.ts';
import { accessOf } from '../../permissions/effective.ts';
import { accountInfo } from './info.ts';
import { LOCKED_MESSAGE, Lockout } from './lockout.ts';
import { issueLoginToken } from '../../permissions/tokens.ts';
import { acceptTotp } from './totp.ts';
import { text } from '../../lib/i18n.ts';

// The face: what other modules may use of this one.
export { accountInfo } from './info.ts';
export { LOCKED_MESSAGE, Lockout } from './lockout.ts';
export { acceptTotp, newTotpSecret, TOTP_SECRET, totpQr } from './totp.ts';


const loginBody = z.object({
  username: z.string().max(255),
  password: z.string(),
  remember: z.boolean().optional().default(false),
  totp: z.string().max(32).optional().default(''),
});

const MSG = {
  locked: LOCKED_MESSAGE,
  tooLong: text('您输入的密码过长', 'The password is too long'),
  wrong: text('您输入的账号或密码不正确', 'Wrong username or password'),
  disabled: text('该账户已停用', 'This account is disabled'),
  wrongTotp: text('您输入双因素认证授权码不正确', 'Wrong two-factor authentication code'),
};

/** Why a login failed, as the login log keeps it (zh-CN) and its list says it (logs/login-logs.ts). */
const REASON = {
  tooLong: text('密码过长', 'Password too long'),
  locked: text('登录失败次数过多', 'Too many failed logins'),
  wrong: text('账号或密码不正确', 'Wrong username or password'),
  disabled: text('账户已停用', 'Account disabled'),
  wrongTotp: text('双因素认证授权码不正确', 'Wrong two-factor code'),
  changed: text('账户已变更', 'Account changed during login'),
};

// Compared against when the username is unknown, so both cases cost one bcrypt (no timing oracle).
let dummyHash: Promise<string> | undefined;
const dummy = () => {
  dummyHash ??= hashPassword('-');
  return dummyHash;
};

export default defineModule('auth', ({ db, clock, box, catalogue }) => {
  const lockout = new Lockout(db, clock);

  const log = (trx: Db, req: FastifyRequest, username: string, remember: boolean, state: '1' | '0', reason: string) =>
    recordLogin(trx, {
      username: username.slice(0, 255),
      clientIp: req.ip,
      clientUserAgent: String(req.headers['user-agent'] ?? '').slice(0, 512),
      loginTime: clock.now(),
      logoutTime: null,
      remember: remember ? 1 : 0,
      state,
      reason,
    });

  return [
    route({
      method: 'POST',
      path: '/login',
      allow: 'anonymous',
      body: loginBody,
      handler: async ({ body, req, lng }) => {
        const { username, password, remember, totp } = body;
        // Refused before anything is counted or hashed: bcrypt would ignore the bytes past 72 (and no password
        // that long can be set).
        if (tooLongForBcrypt(password)) {
          await log(db, req, username, remember, '0', REASON.tooLong);
          throw fail(MSG.tooLong);
        }
        // req.ip honours X-Forwarded-For only with JUMPGATE_TRUST_PROXY (quirk 6). The attempt is counted now,
        // before the hash is compared, so parallel guesses cannot all get past the lock-out.
        const attempt = await lockout.reserve(req.ip, username);
        if (!attempt) {
          await log(db, req, username, remember, '0', REASON.locked);
          throw fail(MSG.locked);
        }
        const user = await findUser(db, username);
        const passwordOk = await verifyPassword(password, user?.password ?? (await dummy()));
        if (!user || !passwordOk) {
          const count = await attempt.failed();
          await log(db, req, username, remember, '0', REASON.wrong);
          throw fail(MSG.wrong, count);
        }
        // Only someone who knows the password learns the account is disabled (quirk 18).
        if (user.status === 'disabled') {
          await attempt.release();
          await log(db, req, username, remember, '0', REASON.disabled);
          throw fail(MSG.disabled);
        }
        if (totpEnabled(user.totpSecret)) {
          if (totp === '') {
            await attempt.release(); // not a success: resetting here would let TOTP guesses go on for ever
            throw new ApiError(100, '');
          }
          // Sealed at rest; a code is accepted once (a replay within its window is a wrong code).
          if (!(await acceptTotp(db, user.id, box.decrypt(user.totpSecret), totp, clock.now()))) {
            const count = await attempt.failed();
            await log(db, req, username, remember, '0', REASON.wrongTotp);
            throw fail(MSG.wrongTotp, count);
          }
        }
        // The token is issued only if the account is still the one just checked: same password hash, enabled,
        // present. A password change, disable or delete that landed while the hash was compared ends the tokens
        // it sees in its own transaction; this check refuses the ones it could not see (no token outlives it).
        const token = await db.transaction().execute(async (trx) => {
          const now = await trx.selectFrom('users').select(['password', 'status']).where('id', '=', user.id).executeTakeFirst();
          if (!now || now.password !== user.password || now.status !== 'enabled') return null;
          const logId = await log(trx, req, user.username, remember, '1', '');
          await trx.updateTable('users').set({ online: 1 }).where('id', '=', user.id).execute();
          return issueLoginToken(trx, user.id, remember, logId, clock.now());
        });
        if (!token) {
          await attempt.release();
          await log(db, req, username, remember, '0', REASON.changed);
          throw fail(MSG.wrong);
        }
        await attempt.succeeded();
        const info = accountInfo({ ...user, totpEnabled: totpEnabled(user.totpSecret) }, await accessOf(db, catalogue, user.id), lng);
        return { token, info };
      },
    }),
  ];
});

/**
 * Login matches the name case-insensitively on its normalised form (users.username_key); an exact match wins, so
 * accounts whose names only differ in case (imported from 1.3.9 before keys were unique) each still log in.
 */
async function findUser(db: Db, username: string) {
  const columns = ['id', 'username', 'nickname', 'type', 'status', 'password', 'totpSecret'] as const;
  const exact = await db.selectFrom('users').select(columns).where('username', '=', username).executeTakeFirst();
  return exact ?? (await db.selectFrom('users').select(columns).where('usernameKey', '=', usernameKey(username)).executeTakeFirst());
}
