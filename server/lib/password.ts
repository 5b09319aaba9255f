import { availableParallelism } from 'node:os';
import { randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import { Semaphore } from './semaphore.ts';

/** bcrypt cost 10, as 1.3.9; its `$2a$` hashes verify too, so a 1.3.9 backup keeps its passwords. */
export const BCRYPT_COST = 10;
/** Shortest password a user or an admin may set (characters). */
export const MIN_PASSWORD_LENGTH = 8;
/** bcrypt reads only this many bytes; longer passwords are refused, never silently truncated. */
export const MAX_PASSWORD_BYTES = 72;

/**
 * The native `bcrypt` binding hashes on libuv's thread pool, so the event loop keeps serving while a hash runs
 * (bcryptjs ran on the event loop: 40 parallel logins stalled every route). At most this many hashes run at once,
 * one core kept free for the event loop: a login flood queues here and slows logins only.
 */
export const MAX_CONCURRENT_HASHES = Math.max(1, Math.min(4, availableParallelism() - 1));
const hashing = new Semaphore(MAX_CONCURRENT_HASHES);

export const passwordBytes = (plain: string) => Buffer.byteLength(plain, 'utf8');

/** Refused before any hashing: bcrypt would ignore the rest (and a 1 MB string costs nothing to refuse). */
export const tooLongForBcrypt = (plain: string) => plain.length > MAX_PASSWORD_BYTES * 4 || passwordBytes(plain) > MAX_PASSWORD_BYTES;

export const PASSWORD_MSG = {
  empty: '请输入密码',
  tooShort: `密码长度不能少于${MIN_PASSWORD_LENGTH}位`,
  blank: '密码不能只有空格',
  tooLong: `密码过长：最多${MAX_PASSWORD_BYTES}字节（UTF-8 编码，一个汉字占3字节）`,
};

/** Why a password may not be set (by its user, an admin or JUMPGATE_ADMIN_PASSWORD), or undefined when it may. */
export function passwordProblem(plain: string): string | undefined {
  if (plain === '') return PASSWORD_MSG.empty;
  if (plain.trim() === '') return PASSWORD_MSG.blank;
  if (tooLongForBcrypt(plain)) return PASSWORD_MSG.tooLong;
  if ([...plain].length < MIN_PASSWORD_LENGTH) return PASSWORD_MSG.tooShort;
  return undefined;
}

export const hashPassword = (plain: string): Promise<string> => hashing.run(() => bcrypt.hash(plain, BCRYPT_COST));

export async function verifyPassword(plain: string, hash: string): Promise<boolean> {
  try {
    return await hashing.run(() => bcrypt.compare(plain, hash));
  } catch {
    return false; // malformed hash in the DB: a refusal, not a 500
  }
}

/** 24 URL-safe characters (144 bits) for the first admin when no password was configured. */
export const generatePassword = () => randomBytes(18).toString('base64url');
