import type { SessionDeps } from './deps.ts';
import { given, openSecrets } from '../credentials/index.ts';
import { ConnectError, MSG_NO_ASSET, type Target, targetOf } from './reach.ts';

/*
 * The account a session logs in with on the asset, for every relay: the asset's own (user name and password, or a
 * private key) or its credential's, secrets opened in memory only. The SSH relay authenticates with it; the Telnet
 * relay types it at the host's prompts.
 */

export const MSG_NO_CREDENTIAL = '授权凭证不存在或已被删除';

export interface Login extends Target {
  username: string;
  /** The account names its user (false: none given, `root` is SSH's default; Telnet then leaves the login to the user). */
  named: boolean;
  password?: string;
  privateKey?: string;
  passphrase?: string;
  /** The pinned host key's fingerprint, null = none yet. */
  hostKey: string | null;
  assetId: string;
}

/** The asset's login: its own account or its credential's, secrets opened; empty or `-` user name → root. */
export async function loginOf({ db, box }: Pick<SessionDeps, 'db' | 'box'>, assetId: string): Promise<Login> {
  const target = await targetOf({ db, box }, assetId);
  const asset = await db
    .selectFrom('assets')
    .select(['accountType', 'username', 'password', 'privateKey', 'passphrase', 'credentialId', 'hostKey'])
    .where('id', '=', assetId)
    .executeTakeFirst();
  if (!asset) throw new ConnectError(800, MSG_NO_ASSET);

  let account: { username: string; password: string | null; privateKey: string | null; passphrase: string | null; keyAuth: boolean };
  if (asset.accountType === 'credential') {
    const credential = asset.credentialId
      ? await db.selectFrom('credentials').select(['type', 'username', 'password', 'privateKey', 'passphrase']).where('id', '=', asset.credentialId).executeTakeFirst()
      : undefined;
    if (!credential) throw new ConnectError(-1, MSG_NO_CREDENTIAL);
    account = { ...credential, keyAuth: credential.type === 'private-key' };
  } else {
    account = { ...asset, keyAuth: asset.accountType === 'private-key' };
  }
  const secrets = openSecrets(box, account);
  const named = given(account.username);
  const base = { ...target, username: named ?? 'root', named: named !== undefined, hostKey: asset.hostKey, assetId };
  return account.keyAuth ? { ...base, privateKey: secrets.privateKey, passphrase: secrets.passphrase } : { ...base, password: secrets.password };
}
