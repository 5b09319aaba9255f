import { createCipheriv } from 'node:crypto';

/*
 * VNC Authentication (RFB security type 2, RFC 6143 §7.2.2): the server sends a 16-byte random challenge and the
 * client answers it encrypted with DES (ECB, two blocks), the key being the password's first 8 bytes, zero-padded,
 * with the bits of every key byte in reverse order (a quirk of the original implementation that every server keeps).
 *
 * Node 20's OpenSSL 3 refuses `des-ecb` (a legacy-provider cipher); triple DES with one key repeated three times
 * (E_k(D_k(E_k(x)))) is plain DES, and `des-ede3-ecb` is in the default provider. Checked against the DES standard
 * vector (tests/server/sessions/vnc/vnc-auth.test.ts) and against a real Xvnc.
 */

/** The challenge's and the answer's length. */
export const VNC_CHALLENGE_BYTES = 16;

/** One DES encryption in ECB mode, no padding: `data` is a multiple of 8 bytes, `key` 8 bytes (parity bits ignored). */
export function desEcb(key: Buffer, data: Buffer): Buffer {
  if (key.length !== 8) throw new Error('DES key must be 8 bytes');
  if (data.length % 8 !== 0) throw new Error('DES data must be a multiple of 8 bytes');
  const cipher = createCipheriv('des-ede3-ecb', Buffer.concat([key, key, key]), null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

const reverseBits = (byte: number): number => {
  let out = 0;
  for (let i = 0; i < 8; i++) out |= ((byte >> i) & 1) << (7 - i);
  return out;
};

/**
 * The VNC key of a password: its first 8 bytes (UTF-8, as `vncpasswd` takes what is typed), zero-padded, each
 * byte's bits reversed. Longer passwords are cut at 8 bytes by every VNC server, so only these count.
 */
export function vncKey(password: string): Buffer {
  const key = Buffer.alloc(8);
  Buffer.from(password, 'utf8').copy(key, 0, 0, 8);
  for (let i = 0; i < 8; i++) key[i] = reverseBits(key[i] as number);
  return key;
}

/** The answer to a VncAuth challenge (16 bytes in, 16 bytes out). */
export function vncAuthResponse(challenge: Buffer, password: string): Buffer {
  if (challenge.length !== VNC_CHALLENGE_BYTES) throw new Error(`VNC challenge must be ${VNC_CHALLENGE_BYTES} bytes`);
  const key = vncKey(password);
  try {
    return desEcb(key, challenge);
  } finally {
    key.fill(0);
  }
}
