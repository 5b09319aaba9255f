import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { desEcb, vncAuthResponse, vncKey } from '../../../../server/modules/sessions/vnc/vnc-auth.ts';

const VNCPASSWD = '/usr/bin/vncpasswd';

describe('VncAuth', () => {
  it('encrypts the DES standard vector (FIPS 81: key 0123456789abcdef, "Now is t")', () => {
    const out = desEcb(Buffer.from('0123456789abcdef', 'hex'), Buffer.from('4e6f772069732074', 'hex'));
    expect(out.toString('hex')).toBe('3fa40e8a984d4815');
  });

  it("reverses each key byte's bits, cuts the password at 8 bytes and pads it with zeros", () => {
    expect(vncKey('\x01\x02\x7f').toString('hex')).toBe('8040fe0000000000');
    expect(vncKey('abcdefghXYZ').equals(vncKey('abcdefgh'))).toBe(true);
    expect(vncKey('').equals(Buffer.alloc(8))).toBe(true);
  });

  it('answers a challenge as two DES blocks under the VNC key', () => {
    const challenge = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
    const answer = vncAuthResponse(challenge, 'secret12');
    expect(answer).toHaveLength(16);
    expect(answer.subarray(0, 8).equals(desEcb(vncKey('secret12'), challenge.subarray(0, 8)))).toBe(true);
    expect(answer.subarray(8).equals(desEcb(vncKey('secret12'), challenge.subarray(8)))).toBe(true);
    // Only the first 8 bytes count.
    expect(vncAuthResponse(challenge, 'secret12-and-more').equals(answer)).toBe(true);
    expect(vncAuthResponse(challenge, 'secret13').equals(answer)).toBe(false);
    expect(() => vncAuthResponse(Buffer.alloc(8), 'x')).toThrow();
  });

  // vncpasswd stores the password DES-encrypted under TigerVNC's fixed key with the same bit-reversed key schedule:
  // the same code path as the challenge's answer, computed by the real tool.
  it.skipIf(!fs.existsSync(VNCPASSWD))("matches vncpasswd's own DES (its password file under the fixed key)", () => {
    const fixedKey = String.fromCharCode(23, 82, 107, 6, 35, 78, 88, 7);
    for (const password of ['secret12', 'abcdef', 'longer-than-eight']) {
      const file = execFileSync(VNCPASSWD, ['-f'], { input: `${password}\n` });
      const block = Buffer.alloc(8);
      Buffer.from(password).copy(block, 0, 0, 8);
      expect(desEcb(vncKey(fixedKey), block).toString('hex')).toBe(file.toString('hex'));
    }
  });
});
