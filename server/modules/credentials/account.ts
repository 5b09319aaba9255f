// ssh2 is CommonJS whose `utils` Node's ESM loader cannot see as a named export (vitest can): take it off the default.
import ssh2 from 'ssh2';
import { z } from 'zod';
import { fail } from '../../http/envelope.ts';
import { both, type Message, text } from '../../lib/i18n.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { cachedVerdict, checkKeyOffLoop, isCostly, kdfProblem } from './key-check.ts';

/*
 * An SSH account as credentials store it, and gateways (and assets) the same way: a type, a username and three
 * secrets sealed by the secret box (null = none). The rules of common.md, in one place:
 *  - no answer carries a secret; the wire says which are set with passwordSet / privateKeySet / passphraseSet;
 *  - on an edit a secret that is absent, '' or '-' (1.3.9's "empty") keeps the stored one, any other value replaces it
 *    (the 1.3.9 console sends its edit form back with the secrets empty: they must survive);
 *  - the type decides which secrets apply; the others are cleared (1.3.9's normalisation);
 *  - a private key must parse with ssh2 (the library that will use it), with its passphrase.
 */

export type AccountType = 'custom' | 'private-key';

export const MAX_PRIVATE_KEY = 16 * 1024;
const MAX_SECRET = 1024;

const secret = (max: number) => z.string().max(max, `at most ${max} characters`).nullish();

/** The secret fields of a create or edit body. */
export const secretFields = {
  password: secret(MAX_SECRET),
  privateKey: secret(MAX_PRIVATE_KEY),
  passphrase: secret(MAX_SECRET),
};

export const zUsername = z
  .string()
  .max(128, 'at most 128 characters')
  .nullish()
  .transform((v) => (v === '-' ? '' : (v ?? '').trim()));

export interface SecretInput {
  password?: string | null;
  privateKey?: string | null;
  passphrase?: string | null;
}

/** The sealed columns as stored. */
export interface SealedSecrets {
  password: string | null;
  privateKey: string | null;
  passphrase: string | null;
}

/** A secret the body really gives: absent, '' and '-' give none. */
export const given = (value: string | null | undefined): string | undefined => (value === undefined || value === null || value === '' || value === '-' ? undefined : value);

/** What the wire says instead of the secrets. */
export const secretFlags = (s: SealedSecrets) => ({ passwordSet: s.password !== null, privateKeySet: s.privateKey !== null, passphraseSet: s.passphrase !== null });

/** Why ssh2 cannot use this private key (with this passphrase), in the console's language; null when it can. */
export function privateKeyProblem(key: string, passphrase?: string): Message | null {
  // A key that asks for more bcrypt rounds than the bound is refused before anything is derived (key-check.ts).
  const rounds = kdfProblem(key);
  if (rounds) return both(rounds.zh, rounds.en);
  // A key whose passphrase runs bcrypt is never opened here, on the event loop: `prepareSecrets` opened it in a worker.
  const parsed = isCostly(key, passphrase) ? workerVerdict(key, passphrase!) : ssh2.utils.parseKey(key, passphrase);
  if (parsed instanceof Error) {
    if (/no passphrase given/i.test(parsed.message)) return '私钥已加密，请输入私钥密码';
    if (/passphrase\?/i.test(parsed.message)) return '私钥密码不正确';
    return `无法解析私钥：${parsed.message}`;
  }
  if (parsed === 'public') return '这是公钥，请填写私钥';
  if (parsed === 'ok') return null;
  const first = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!first?.isPrivateKey()) return '这是公钥，请填写私钥';
  return null;
}

const MSG_KEY_UNCHECKED = text('私钥尚未校验完成，请重试', 'The private key is not checked yet: try again');

/** What the worker found for a costly key (`prepareSecrets`); a key it never saw is refused, not opened here. */
function workerVerdict(key: string, passphrase: string): Error | 'public' | 'ok' {
  const answer = cachedVerdict(key, passphrase);
  if (!answer) return new Error(MSG_KEY_UNCHECKED);
  if (answer.error) return new Error(answer.error);
  return answer.publicKey ? 'public' : 'ok';
}

/**
 * Opens, in a worker thread, every costly key (see key-check.ts) that `nextSecrets` will check for this body and
 * what is stored, so that its synchronous check (inside a write transaction) finds the verdict. Call it before the
 * transaction, with the stored secrets read just before.
 */
export async function prepareSecrets(box: SecretBox, type: string, input: SecretInput, stored?: SealedSecrets | null): Promise<void> {
  if (type !== 'private-key') return;
  const newKey = given(input.privateKey);
  const storedKey = stored?.privateKey ? box.decrypt(stored.privateKey) : undefined;
  const storedPassphrase = stored?.passphrase ? box.decrypt(stored.passphrase) : undefined;
  const key = newKey ?? storedKey;
  if (key === undefined) return;
  await checkKeyOffLoop(key, given(input.passphrase) ?? storedPassphrase);
}

/**
 * The sealed secrets to store for an account of `type`, from a body and what is stored (undefined on create).
 * Throws the `-1` answer when a private-key account ends up without a usable key.
 */
export function nextSecrets(box: SecretBox, type: AccountType, input: SecretInput, stored?: SealedSecrets): SealedSecrets {
  const keep = (field: keyof SealedSecrets) => stored?.[field] ?? null;
  const password = given(input.password);
  if (type === 'custom') return { password: password !== undefined ? box.encrypt(password) : keep('password'), privateKey: null, passphrase: null };

  const newKey = given(input.privateKey);
  const newPassphrase = given(input.passphrase);
  const key = newKey ?? (stored?.privateKey ? box.decrypt(stored.privateKey) : undefined);
  if (key === undefined) throw fail('请输入私钥');
  if (newPassphrase !== undefined || newKey === undefined) {
    const passphrase = newPassphrase ?? (stored?.passphrase ? box.decrypt(stored.passphrase) : undefined);
    const problem = privateKeyProblem(key, passphrase);
    if (problem) throw fail(problem);
    return { password: null, privateKey: newKey !== undefined ? box.encrypt(newKey) : keep('privateKey'), passphrase: newPassphrase !== undefined ? box.encrypt(newPassphrase) : keep('passphrase') };
  }
  // A new key without a passphrase: the stored passphrase survives only if the new key needs one.
  if (privateKeyProblem(key) === null) return { password: null, privateKey: box.encrypt(newKey), passphrase: null };
  const storedPassphrase = stored?.passphrase ? box.decrypt(stored.passphrase) : undefined;
  const problem = privateKeyProblem(key, storedPassphrase);
  if (problem) throw fail(problem);
  return { password: null, privateKey: box.encrypt(newKey), passphrase: keep('passphrase') };
}

/**
 * A stored password goes only where it was entered for (issue 28, rule 2). An edit (or a copy) that sends an account
 * somewhere else — another host, port, protocol or route, a hop added, changed or removed (the same ip:port seen
 * from the bastion instead of from a gateway is another host), or, for a gateway, another address or login — must
 * give the password again; keeping the stored one would let anyone allowed to edit an address, but not to read the
 * secret, receive it on a host of their own. `mayKeep`: the record's owner or the super admin, who entered or may
 * replace the secret anyway, keep it. Private keys are not at risk: public-key authentication proves the key without
 * sending it (SSH hosts are also held to their pinned host key, host-key.ts).
 * `-1 <where>已更改，请重新输入<what>（已保存的<what>只发往原来的地址）`.
 */
export function assertSecretStays(moved: string | null, input: string | null | undefined, stored: string | null, what = '密码', mayKeep = false): void {
  if (moved !== null && stored !== null && !mayKeep && given(input) === undefined) throw fail(`${moved}已更改，请重新输入${what}（已保存的${what}只发往原来的地址）`);
}

/** The opened secrets of a stored account, for the code that logs in with it (never for an answer). */
export function openSecrets(box: SecretBox, s: SealedSecrets): { password?: string; privateKey?: string; passphrase?: string } {
  return {
    password: box.decryptNullable(s.password) ?? undefined,
    privateKey: box.decryptNullable(s.privateKey) ?? undefined,
    passphrase: box.decryptNullable(s.passphrase) ?? undefined,
  };
}
