import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportAnswer } from '../../../server/modules/assets/csv.ts';
import { connectSsh } from '../../../server/modules/sessions/ssh/connect.ts';
import { csvUpload, sshAsset } from '../assets/helpers.ts';
import { sshAsset as sshdAsset, sshdUnavailable, startSshd } from '../sshd.ts';
import { newKey, resourcesHarness } from './helpers.ts';

/** The bound (credentials/key-check.ts MAX_KDF_ROUNDS), spelled out so that this file also runs against the old code. */
const MAX_KDF_ROUNDS = 64;

/*
 * Issue 28 rule 5: an OpenSSH key whose bcrypt KDF asks for a huge round count (a uint32 its author chooses) froze the
 * event loop for one request. Every path that reads a key refuses it before deriving anything, with the bound named.
 * (On the old code each of these requests runs bcrypt for hours: the test times out.)
 */

/** The kdfoptions' rounds of an `openssh-key-v1` key (string salt, uint32 rounds). */
function roundsOf(key: string): number {
  const data = Buffer.from(/-----BEGIN OPENSSH PRIVATE KEY-----\n([\s\S]+?)\n-----END/.exec(key)![1]!.replace(/\s+/g, ''), 'base64');
  let at = 15;
  at += 4 + data.readUInt32BE(at); // ciphername
  at += 4 + data.readUInt32BE(at); // kdfname
  const options = at + 4;
  return data.readUInt32BE(options + 4 + data.readUInt32BE(options));
}

/** Writes `rounds` into the kdfoptions of a real `openssh-key-v1` key (string salt, uint32 rounds), the rest untouched. */
function withRounds(key: string, rounds: number): string {
  const m = /-----BEGIN OPENSSH PRIVATE KEY-----\n([\s\S]+?)\n-----END OPENSSH PRIVATE KEY-----/.exec(key);
  if (!m) throw new Error('not an OpenSSH key');
  const data = Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
  expect(data.toString('latin1', 0, 15)).toBe('openssh-key-v1\0');
  let at = 15;
  const skip = () => {
    at += 4 + data.readUInt32BE(at);
  };
  skip(); // ciphername
  skip(); // kdfname
  const options = at + 4; // kdfoptions: string salt, uint32 rounds
  data.writeUInt32BE(rounds, options + 4 + data.readUInt32BE(options));
  const body = data.toString('base64').match(/.{1,70}/g)!.join('\n');
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n-----END OPENSSH PRIVATE KEY-----\n`;
}

const PASSPHRASE = 'Slow-Key-Passphrase';
const HOSTILE = withRounds(newKey(PASSPHRASE).privateKey, 0xffff_fff0);
const REFUSED = `私钥的加密轮数（bcrypt rounds）为 ${0xffff_fff0}，超过上限 ${MAX_KDF_ROUNDS}（ssh-keygen 默认 16）：请用 ssh-keygen -p -a 16 重新设置私钥密码`;

describe('a private key with a huge bcrypt round count', () => {
  it('is what the test says it is', () => {
    expect(roundsOf(HOSTILE)).toBe(0xffff_fff0);
  });

  it('is refused at once by POST and PUT of assets, credentials and gateways, with and without its passphrase', async () => {
    const { api } = await resourcesHarness();
    for (const passphrase of [PASSPHRASE, '']) {
      const key = { privateKey: HOSTILE, passphrase };
      expect((await api.call('POST', '/assets', { body: sshAsset({ name: 'slow', accountType: 'private-key', password: '', ...key }) })).body).toEqual({ code: -1, message: REFUSED });
      expect((await api.call('POST', '/credentials', { body: { name: 'slow', type: 'private-key', username: 'u', password: '', ...key } })).body).toEqual({ code: -1, message: REFUSED });
      const gateway = { name: 'slow', ip: '127.0.0.1', port: 1, accountType: 'private-key', username: 'u', password: '' };
      expect((await api.call('POST', '/access-gateways', { body: { ...gateway, ...key } })).body).toEqual({ code: -1, message: REFUSED });
    }
    // The same through the edits.
    const asset = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'fine' }) });
    const key = { privateKey: HOSTILE, passphrase: PASSPHRASE };
    expect((await api.call('PUT', `/assets/${asset.id}`, { body: sshAsset({ name: 'fine', accountType: 'private-key', password: '', ...key }) })).body).toEqual({ code: -1, message: REFUSED });
    const credential = await api.ok<{ id: string }>('POST', '/credentials', { body: { name: 'c', type: 'custom', username: 'u', password: 'Cred-Pass-1' } });
    expect((await api.call('PUT', `/credentials/${credential.id}`, { body: { name: 'c', type: 'private-key', username: 'u', password: '', ...key } })).body).toEqual({ code: -1, message: REFUSED });
    const gateway = await api.ok<{ id: string }>('POST', '/access-gateways', { body: { name: 'g', ip: '127.0.0.1', port: 1, accountType: 'password', username: 'u', password: 'Gw-Pass-1' } });
    expect((await api.call('PUT', `/access-gateways/${gateway.id}`, { body: { name: 'g', ip: '127.0.0.1', port: 1, accountType: 'private-key', username: 'u', password: '', ...key } })).body).toEqual({
      code: -1,
      message: REFUSED,
    });
  });

  it('is a row error of a CSV import, the other rows imported', async () => {
    const { api } = await resourcesHarness();
    const csv = `good,ssh,10.0.0.1,22,u,Csv-Pass-1,,,d\r\nslow,ssh,10.0.0.2,22,u,,"${HOSTILE}",${PASSPHRASE},d\r\n`;
    const answer = await api.ok<ImportAnswer>('POST', '/assets/import', csvUpload(csv));
    expect([answer.successCount, answer.errorCount]).toEqual([1, 1]);
    expect(answer.data).toEqual({ '2': REFUSED });
  });

  it('stored before the bound, is refused when a session connects with it', async () => {
    const { h, api } = await resourcesHarness();
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'old', ip: '127.0.0.1', port: 1 }) });
    await h.db
      .updateTable('assets')
      .set({ accountType: 'private-key', password: null, privateKey: h.box.encrypt(HOSTILE), passphrase: h.box.encrypt(PASSPHRASE) })
      .where('id', '=', id)
      .execute();
    await expect(connectSsh({ db: h.db, box: h.box, gateways: undefined as never }, id)).rejects.toMatchObject({ code: -1, message: REFUSED });
  });

  it('within the bound, opens with its passphrase (in a worker) and refuses a wrong one', async () => {
    const { api } = await resourcesHarness();
    const key = newKey(PASSPHRASE).privateKey; // 4 rounds
    const body = { name: 'ok', type: 'private-key', username: 'u', password: '', privateKey: key };
    expect((await api.call('POST', '/credentials', { body: { ...body, passphrase: 'wrong' } })).body).toEqual({ code: -1, message: '私钥密码不正确' });
    await api.ok('POST', '/credentials', { body: { ...body, passphrase: PASSPHRASE } });
  });
});

describe.skipIf(sshdUnavailable())('a passphrase key within the bound, at connect (real sshd)', () => {
  it('is opened in a worker and handed to ssh2 without its passphrase: the session logs in (ed25519, 16 rounds)', async () => {
    const sshd = await startSshd();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jg-key-'));
    try {
      const file = path.join(dir, 'key');
      fs.writeFileSync(file, sshd.privateKey, { mode: 0o600 });
      execFileSync('ssh-keygen', ['-p', '-q', '-P', '', '-N', PASSPHRASE, '-a', '16', '-f', file]);
      const key = fs.readFileSync(file, 'utf8');
      expect(roundsOf(key)).toBe(16);
      const { h, api } = await resourcesHarness();
      const body = { ...sshdAsset(sshd, 'sealed'), accountType: 'private-key', password: '', privateKey: key, passphrase: PASSPHRASE };
      expect((await api.call('POST', '/assets', { body: { ...body, passphrase: 'wrong' } })).body).toEqual({ code: -1, message: '私钥密码不正确' });
      const { id } = await api.ok<{ id: string }>('POST', '/assets', { body });
      const { client, username } = await connectSsh({ db: h.db, box: h.box, gateways: undefined as never }, id);
      expect(username).toBe(sshd.username);
      client.end();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await sshd.stop();
    }
  });
});
