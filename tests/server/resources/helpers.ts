import type { AppDeps } from '../../../server/modules/index.ts';
import { expect } from 'vitest';
import type { PermissionKey } from '../../../shared/manifest.ts';
import { defineModule } from '../../../server/http/routes.ts';
import type { Gateways } from '../../../server/modules/gateways/service.ts';
import { ed25519KeyPair } from '../sshd.ts';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { type CallOptions, type Harness, type HarnessOptions, startHarness } from '../harness.ts';

export interface Paged<T> {
  total: number;
  items: T[];
}

/** Sealed values of every secret column of this tables: none may appear in an answer either. */
async function sealedValues(h: Harness): Promise<string[]> {
  const rows = [
    ...(await h.db.selectFrom('credentials').select(['password', 'privateKey', 'passphrase']).execute()),
    ...(await h.db.selectFrom('accessGateways').select(['password', 'privateKey', 'passphrase']).execute()),
  ];
  return rows.flatMap((r) => [r.password, r.privateKey, r.passphrase]).filter((v): v is string => v !== null);
}

/**
 * A harness with a super-admin token, `deps.gateways` of the running app, and a watch on every answer: no secret
 * given through `secret()` (nor a line of it, for keys) and no sealed value may come back, whatever the route.
 */
export async function resourcesHarness(opts: HarnessOptions = {}) {
  let gateways: Gateways | undefined;
  const grab = defineModule<AppDeps>('grab-gateways', (deps) => {
    gateways = deps.gateways;
    return [];
  });
  const h = await startHarness({ ...opts, modules: [...(opts.modules ?? []), grab] });
  const root = await h.accessToken(SUPER_ADMIN_ID);
  const plain = new Set<string>();

  const assertNoSecret = async (label: string, text: string) => {
    for (const s of plain) expect(text.includes(s), `${label} carries a secret`).toBe(false);
    for (const s of await sealedValues(h)) expect(text.includes(s), `${label} carries a sealed secret`).toBe(false);
  };
  const as = (token: string) => {
    const call = async (method: string, url: string, o: CallOptions = {}) => {
      const res = await h.call(method, url, { token, ...o });
      await assertNoSecret(`${method} ${url}`, res.text);
      return res;
    };
    return {
      call,
      /** Expects code 1 and returns `data`. */
      ok: async <T = unknown>(method: string, url: string, o: CallOptions = {}): Promise<T> => {
        const res = await call(method, url, o);
        expect(res.body, `${method} ${url}: ${res.text.slice(0, 300)}`).toMatchObject({ code: 1 });
        return res.body.data as T;
      },
    };
  };
  return {
    h,
    root,
    api: as(root),
    as,
    get gateways(): Gateways {
      if (!gateways) throw new Error('gateways not captured');
      return gateways;
    },
    /** Registers a secret that no answer may carry (for keys: every base64 line of it too) and returns it. */
    secret<T extends string>(value: T): T {
      plain.add(value);
      for (const line of value.split('\n')) if (line.length >= 20 && !line.startsWith('-----')) plain.add(line);
      return value;
    },
  };
}

/** An admin holding exactly these keys, with a personal access token. */
export async function adminWith(h: Harness, keys: readonly PermissionKey[], username: string): Promise<{ id: string; token: string }> {
  const role = await h.createRole(keys, `role-of-${username}`);
  const id = await h.createUser({ username, type: 'admin', roles: [role] });
  return { id, token: await h.accessToken(id) };
}

/** A fresh ed25519 private key in OpenSSH format, sealed with `passphrase` when given (few KDF rounds: tests parse it often). */
export function newKey(passphrase?: string): { privateKey: string; publicKey: string } {
  const pair = ed25519KeyPair(passphrase ? { passphrase, cipher: 'aes256-ctr', rounds: 4 } : {});
  return { privateKey: pair.private, publicKey: pair.public };
}
