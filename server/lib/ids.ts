import { createHash, randomBytes, randomUUID } from 'node:crypto';

export const uuid = (): string => randomUUID();

/** 128 lowercase hex characters from the CSPRNG: the login-token shape of 1.3.9. */
export const longToken = (): string => randomBytes(64).toString('hex');

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** 1.3.9's "signed" id: hex MD5 of the sorted parts concatenated (roles_menus_ref.id = sign([roleId, menuId])). */
export const sign = (parts: string[]): string => createHash('md5').update([...parts].sort().join('')).digest('hex');
