import { expect } from 'vitest';
import { formatDate } from '../../../server/lib/time.ts';
import { sshAsset } from '../assets/helpers.ts';
import { identityHarness, type Paged } from '../identity/helpers.ts';

export type { Paged } from '../identity/helpers.ts';

export interface ExplainAnswer {
  allowed: boolean;
  strategy: unknown;
  via: 'super-admin' | 'owner' | 'user' | 'group' | null;
  grants: { id: string; kind: 'user' | 'group'; userGroupId?: string; userGroupName?: string; strategyId: string; strategyName: string; validFrom: string; validUntil: string; state: string; wins: boolean }[];
}

export interface PortalItem {
  id: string;
  name: string;
  ip: string;
  port: number;
  protocol: string;
  tags: string;
  owner: string;
  ownerName: string;
  [k: string]: unknown;
}

/** A harness with assets (created by the super admin) and short-hands for the access routes. */
export async function accessHarness() {
  const t = await identityHarness();
  const { h, api } = t;
  const asset = async (name: string, over: Record<string, unknown> = {}) => {
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name, ip: `10.1.0.${name.length}`, ...over }) });
    h.clock.advance(1000);
    return id;
  };
  /** A plain (type user) account and its token. */
  const user = async (username: string, type: 'user' | 'admin' = 'user') => {
    const id = await h.createUser({ username, type });
    return { id, token: await h.accessToken(id) };
  };
  const group = async (name: string, members: string[]) => (await api.ok<{ id: string }>('POST', '/user-groups', { body: { name, members } })).id;
  /** Wire date `ms` from now. */
  const at = (ms: number) => formatDate(h.clock.now() + ms);
  /** The names a token sees in its portal; both portal lists must agree (same query, same answer). */
  const sees = async (token: string, query: Record<string, string> = {}) => {
    const worker = await t.as(token).ok<Paged<PortalItem>>('GET', '/worker/assets/paging', { query: { pageSize: '100', ...query } });
    const account = await t.as(token).ok<Paged<PortalItem>>('GET', '/account/assets', { query: { pageSize: '100', ...query } });
    expect(account).toEqual(worker);
    expect(worker.total).toBe(worker.items.length);
    return worker.items.map((i) => i.name).sort();
  };
  const explain = (userId: string, assetId: string) => api.ok<ExplainAnswer>('GET', '/authorised/explain', { query: { userId, assetId } });
  const grants = () => h.db.selectFrom('authorised').selectAll().orderBy('id').execute();
  return { ...t, asset, user, group, at, sees, explain, grants };
}
