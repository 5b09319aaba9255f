import { expect } from 'vitest';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import type { PermissionKey } from '../../../shared/manifest.ts';
import { type CallOptions, type Harness, startHarness } from '../harness.ts';

export interface Paged<T> {
  total: number;
  items: T[];
}

/** A harness plus a super-admin token and short-hands for the identity routes. */
export async function identityHarness() {
  const h = await startHarness();
  const root = await h.accessToken(SUPER_ADMIN_ID);
  const as = (token: string) => ({
    call: (method: string, url: string, o: CallOptions = {}) => h.call(method, url, { token, ...o }),
    /** Expects code 1 and returns `data`. */
    ok: async <T = unknown>(method: string, url: string, o: CallOptions = {}): Promise<T> => {
      const res = await h.call(method, url, { token, ...o });
      expect(res.body, `${method} ${url}: ${res.text.slice(0, 300)}`).toMatchObject({ code: 1 });
      return res.body.data as T;
    },
  });
  return { h, root, api: as(root), as };
}

/** Creates an admin holding exactly these keys (through the database) and returns a personal access token. */
export async function adminWith(h: Harness, keys: readonly PermissionKey[], username: string): Promise<{ id: string; token: string }> {
  const role = await h.createRole(keys, `role-of-${username}`);
  const id = await h.createUser({ username, type: 'admin', roles: [role] });
  return { id, token: await h.accessToken(id) };
}
