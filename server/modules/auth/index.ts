import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { totpEnabled } from '../../http/auth.ts';
import { ApiError, fail } from '../../http/envelope.ts';
import { defineModule, route } from '../../http/routes.ts';
import { uuid } from '../../lib/ids.ts';
import { hashPassword, MAX_PASSWORD_LENGTH, verifyPassword } from '../../lib/password.ts';
import { accessOf } from '../menus/effective.ts';
import { accountInfo } from './info.ts';
import { Lockout } from './lockout.ts';
import { issueLoginToken } from './tokens.ts';
import { checkTotp } from './totp.ts';

const loginBody = z.object({
  username: z.string().max(255),
  password: z.string(),
  remember: z.boolean().optional().default(false),
  totp: z.string().max(32).optional().default(''),
});

const MSG = {
  locked: '登录失败次数过多，请等待5分钟后再试',
  tooLong: '您输入的密码过长',
  wrong: '您输入的账号或密码不正确',
  disabled: '该账户已停用',
  wrongTotp: '您输入双因素认证授权码不正确',
};

// Compared against when the username is unknown, so both cases cost one bcrypt (no timing oracle).
let dummyHash: Promise<string> | undefined;
const dummy = () => {
  dummyHash ??= hashPassword('-');
  return dummyHash;
};

export default defineModule('auth', ({ db, clock, catalogue }) => {
  const lockout = new Lockout(clock);

  const log = (req: FastifyRequest, username: string, remember: boolean, state: '1' | '0', reason: string) => {
    const id = uuid();
    return db
      .insertInto('loginLogs')
      .values({
        id,
        username: username.slice(0, 255),
        clientIp: req.ip,
        clientUserAgent: String(req.headers['user-agent'] ?? '').slice(0, 512),
        loginTime: clock.now(),
        logoutTime: null,
        remember: remember ? 1 : 0,
        state,
        reason,
      })
      .execute()
      .then(() => id);
  };

  return [
    route({
      method: 'POST',
      path: '/login',
      allow: 'anonymous',
      body: loginBody,
      handler: async ({ body, req }) => {
        const { username, password, remember, totp } = body;
        // req.ip honours X-Forwarded-For only with JUMPGATE_TRUST_PROXY (quirk 6).
        const key = `${req.ip}\u0000${username}`;
        if (lockout.isLocked(key)) {
          await log(req, username, remember, '0', '登录失败次数过多');
          throw fail(MSG.locked);
        }
        if (password.length > MAX_PASSWORD_LENGTH) {
          await log(req, username, remember, '0', '密码过长');
          throw fail(MSG.tooLong);
        }
        const user = await findUser(db, username);
        const passwordOk = await verifyPassword(password, user?.password ?? (await dummy()));
        if (!user || !passwordOk) {
          const count = lockout.fail(key);
          await log(req, username, remember, '0', '账号或密码不正确');
          throw fail(MSG.wrong, count);
        }
        // Only someone who knows the password learns the account is disabled (quirk 18).
        if (user.status === 'disabled') {
          await log(req, username, remember, '0', '账户已停用');
          throw fail(MSG.disabled);
        }
        if (totpEnabled(user.totpSecret)) {
          if (totp === '') throw new ApiError(100, '');
          if (!(await checkTotp(user.totpSecret, totp, clock.now()))) {
            const count = lockout.fail(key);
            await log(req, username, remember, '0', '双因素认证授权码不正确');
            throw fail(MSG.wrongTotp, count);
          }
        }
        lockout.reset(key);
        const logId = await log(req, username, remember, '1', '');
        const token = await issueLoginToken(db, user.id, remember, logId, clock.now());
        await db.updateTable('users').set({ online: 1 }).where('id', '=', user.id).execute();
        const info = accountInfo({ ...user, totpEnabled: totpEnabled(user.totpSecret) }, await accessOf(db, catalogue, user.id));
        return { token, info };
      },
    }),
  ];
});

const findUser = (db: Db, username: string) =>
  db.selectFrom('users').select(['id', 'username', 'nickname', 'type', 'status', 'password', 'totpSecret']).where('username', '=', username).executeTakeFirst();
