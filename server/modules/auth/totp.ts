import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Db } from '../../db/index.ts';
import type { UserUpdate } from '../../db/schema.ts';

/** A base32 secret as otplib and authenticator apps expect. */
export const TOTP_SECRET = /^[A-Z2-7]{16,128}$/;
export const TOTP_PERIOD_S = 30;

export const newTotpSecret = () => generateSecret();

/**
 * The time step (unix seconds / 30) a 6-digit code matches at `nowMs`, accepting the neighbouring 30 s steps for
 * clock drift; null when it matches none.
 */
export async function matchTotp(secret: string, code: string, nowMs: number): Promise<number | null> {
  if (!/^\d{6}$/.test(code) || !TOTP_SECRET.test(secret)) return null;
  const epoch = Math.floor(nowMs / 1000);
  try {
    const result = await verify({ secret, token: code, epoch, epochTolerance: TOTP_PERIOD_S });
    return result.valid ? Math.floor(epoch / TOTP_PERIOD_S) + result.delta : null;
  } catch {
    return null; // otplib throws on inputs it dislikes; to the caller that is a wrong code
  }
}

/**
 * Accepts a code once: it must match `secret` (plain) and its time step must be later than the last one accepted
 * for this user (`users.totp_last_step`), which it becomes in the same conditional write, so a replay of the same
 * code, an older one, or two parallel uses of one code succeed once at most. `also` is written with it
 * (confirm-totp stores the new secret).
 */
export async function acceptTotp(db: Db, userId: string, secret: string, code: string, nowMs: number, also: UserUpdate = {}): Promise<boolean> {
  const step = await matchTotp(secret, code, nowMs);
  if (step === null) return false;
  const res = await db.updateTable('users').set({ ...also, totpLastStep: step }).where('id', '=', userId).where('totpLastStep', '<', step).executeTakeFirst();
  return res.numUpdatedRows === 1n;
}

/** otpauth URI (SHA1, 6 digits, 30 s) rendered as a 200×200 PNG, base64 without a `data:` prefix. */
export async function totpQr(issuer: string, account: string, secret: string): Promise<string> {
  const uri = generateURI({ issuer, label: account, secret, algorithm: 'sha1', digits: 6, period: TOTP_PERIOD_S });
  const png = await QRCode.toBuffer(uri, { type: 'png', width: 200, margin: 2 });
  return png.toString('base64');
}
