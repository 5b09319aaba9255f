import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

/** A base32 secret as otplib and authenticator apps expect. */
export const TOTP_SECRET = /^[A-Z2-7]{16,128}$/;

export const newTotpSecret = () => generateSecret();

/** Checks a 6-digit code at `nowMs`, accepting the neighbouring 30 s steps for clock drift. */
export async function checkTotp(secret: string, code: string, nowMs: number): Promise<boolean> {
  if (!/^\d{6}$/.test(code) || !TOTP_SECRET.test(secret)) return false;
  try {
    const result = await verify({ secret, token: code, epoch: Math.floor(nowMs / 1000), epochTolerance: 30 });
    return result.valid;
  } catch {
    return false; // otplib throws on inputs it dislikes; to the caller that is a wrong code
  }
}

/** otpauth URI (SHA1, 6 digits, 30 s) rendered as a 200×200 PNG, base64 without a `data:` prefix. */
export async function totpQr(issuer: string, account: string, secret: string): Promise<string> {
  const uri = generateURI({ issuer, label: account, secret, algorithm: 'sha1', digits: 6, period: 30 });
  const png = await QRCode.toBuffer(uri, { type: 'png', width: 200, margin: 2 });
  return png.toString('base64');
}
