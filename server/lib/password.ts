import bcrypt from 'bcryptjs';
import { randomBytes } from 'node:crypto';

/** bcrypt cost 10, as 1.3.9; its `$2a$` hashes verify too, so a 1.3.9 backup keeps its passwords. */
export const BCRYPT_COST = 10;
/** Longer passwords are refused before hashing (bcrypt only reads 72 bytes anyway). */
export const MAX_PASSWORD_LENGTH = 100;

export const hashPassword = (plain: string) => bcrypt.hash(plain, BCRYPT_COST);

export async function verifyPassword(plain: string, hash: string): Promise<boolean> {
  try {
    return await bcrypt.compare(plain, hash);
  } catch {
    return false; // malformed hash in the DB: a refusal, not a 500
  }
}

/** 24 URL-safe characters (144 bits) for the first admin when no password was configured. */
export const generatePassword = () => randomBytes(18).toString('base64url');
