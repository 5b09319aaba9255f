import { createHash } from 'node:crypto';
import { z } from 'zod';
import { text } from '../../lib/i18n.ts';

/*
 * SSH host keys (issue 28, rule 2: a secret goes only where it was entered for). An SSH asset and an access gateway
 * each pin the host key of the server they log in to, as OpenSSH prints its fingerprint: `SHA256:` and the unpadded
 * base64 of the SHA-256 of the key blob (`ssh-keygen -lf`). Trust on first use: with nothing pinned, the first
 * handshake that logs in pins the key it saw; an admin may also enter the fingerprint in the form. A host that shows
 * another key is refused during the key exchange, before any password or key is offered.
 */

/** `SHA256:<43 base64 characters>`. */
const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;

/** OpenSSH's SHA-256 fingerprint of a host key blob. */
export const fingerprintOf = (key: Buffer): string => `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

/**
 * A fingerprint in a body: absent (undefined) keeps what is stored; '' clears the pin (the next handshake pins again);
 * otherwise `SHA256:…` (padding and surrounding spaces forgiven).
 */
export const zHostKey = z
  .string()
  .max(100, 'at most 100 characters')
  .transform((v) => v.trim().replace(/=+$/, ''))
  .refine((v) => v === '' || FINGERPRINT.test(v), 'expected an OpenSSH SHA-256 fingerprint: SHA256: and 43 base64 characters')
  .optional();

const CHANGED = text(
  '主机密钥已变更（已记录 → 对方出示），连接已在认证前拒绝，以免密码或私钥发往冒充的主机；如确认主机更换了密钥，请由所有者或超级管理员信任新的主机密钥',
  'The host key has changed (pinned → presented), so the connection was refused before authenticating, lest a password or private key reach an impostor; if the host really changed its key, its owner or the super admin may trust the new one',
);

export const MSG_HOST_KEY = {
  /**
   * The refusal of a handshake with another key, naming both: a declared sentence and the two fingerprints as its
   * detail, so that an English socket reads it in English too (lib/i18n.ts says a detail's own declared head).
   */
  changed: (pinned: string, presented: string) => `${CHANGED}：${pinned} → ${presented}`,
  /** Only the record's owner, the super admin, or whoever enters the secret again may trust another key. */
  trustRefused: text(
    '只有所有者或超级管理员可以信任新的主机密钥（或在修改时重新输入密码或私钥）',
    'Only the owner or the super admin may trust a new host key (or an edit that enters the password or private key again)',
  ),
};

/**
 * The host check of one handshake: `verify` for ssh2's `hostVerifier` (raw key blob; false ends the handshake before
 * authentication), then what it saw.
 */
export function hostCheck(pinned: string | null): { verify: (key: Buffer) => boolean; presented(): string | undefined; refusal(): string | undefined } {
  let presented: string | undefined;
  return {
    verify(key) {
      presented = fingerprintOf(key);
      return pinned === null || presented === pinned;
    },
    presented: () => presented,
    refusal: () => (pinned !== null && presented !== undefined && presented !== pinned ? MSG_HOST_KEY.changed(pinned, presented) : undefined),
  };
}
