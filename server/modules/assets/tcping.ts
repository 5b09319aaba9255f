import net from 'node:net';
import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { Asset } from '../../db/schema.ts';
import { type RouteDef, route } from '../../http/routes.ts';
import { Semaphore } from '../../lib/semaphore.ts';
import type { GatewayDeps, Gateways } from '../gateways/index.ts';
import { oneId, requireAll, zId } from '../../http/ids.ts';
import { assetOrFail } from './store.ts';

/*
 * Connectivity tests (contract §2.5 `POST /assets/:id/tcping`): a real TCP connect to the asset's host and port,
 * closed as soon as it is up, through the asset's access gateway when it has one. The outcome is stored on the
 * asset (`active`, `activeMessage`). 1.3.9 also went through the asset's SOCKS proxy: not yet here.
 */

/** How long a connect may take before the asset counts as unreachable (1.3.9: 15 s). */
export const TCPING_TIMEOUT_MS = 5_000;
/** Probes one batch request runs at once. */
export const TCPING_PARALLEL = 8;
/** Ids one batch request may name. */
export const TCPING_MAX_IDS = 1000;

export interface ProbeResult {
  active: boolean;
  /** '' when reachable, else why not (zh-CN, with the system's error). */
  message: string;
}

const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: '连接被拒绝',
  ECONNRESET: '连接被重置',
  EHOSTUNREACH: '主机不可达',
  ENETUNREACH: '网络不可达',
  ENOTFOUND: '无法解析主机名',
  EAI_AGAIN: '无法解析主机名',
};

class ConnectTimeout extends Error {}

/** Resolves once a TCP connection to host:port is established (and closes it), rejects on error or timeout. */
export function tcpConnect(host: string, port: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const done = (err?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve();
    };
    // Covers the name lookup too, unlike socket.setTimeout (idle time once connected).
    const timer = setTimeout(() => done(new ConnectTimeout()), timeoutMs);
    socket.once('connect', () => done());
    socket.once('error', (err) => done(err));
  });
}

/** The wire's message for a failed probe. */
export function probeMessage(err: unknown, timeoutMs: number): string {
  if (err instanceof ConnectTimeout) return `连接超时（${timeoutMs / 1000}秒内未连通）`;
  const { code, message } = err as { code?: string; message?: string };
  return `${(code && REASONS[code]) ?? '连接失败'}：${message ?? String(err)}`;
}

/** Runs `fn` over `items`, at most `limit` at a time; results in the items' order. */
export function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const slots = new Semaphore(limit);
  return Promise.all(items.map((item) => slots.run(() => fn(item))));
}

type Probed = Pick<Asset, 'id' | 'ip' | 'port' | 'accessGatewayId'>;

/**
 * Probes one asset and stores the outcome on it: directly, or through its access gateway (a `direct-tcpip` channel
 * from the gateway to the asset, `deps.gateways.connect`), whose errors are already sentences for the user.
 */
async function probeAsset(db: Db, gateways: Gateways, asset: Probed): Promise<ProbeResult> {
  let result: ProbeResult;
  try {
    if (asset.accessGatewayId) (await gateways.connect(asset.accessGatewayId, asset.ip, asset.port, TCPING_TIMEOUT_MS)).destroy();
    else await tcpConnect(asset.ip, asset.port, TCPING_TIMEOUT_MS);
    result = { active: true, message: '' };
  } catch (err) {
    result = { active: false, message: asset.accessGatewayId ? String((err as Error).message ?? err) : probeMessage(err, TCPING_TIMEOUT_MS) };
  }
  await db
    .updateTable('assets')
    .set({ active: result.active ? 1 : 0, activeMessage: result.message })
    .where('id', '=', asset.id)
    .execute();
  return result;
}

export const tcpingRoutes = ({ db, gateways }: GatewayDeps): RouteDef[] => [
  route({
    method: 'POST',
    path: '/assets/:id/tcping',
    allow: 'granted',
    params: oneId,
    handler: async ({ params }) => probeAsset(db, gateways, await assetOrFail(db, params.id)),
  }),

  route({
    method: 'POST',
    path: '/assets/tcping',
    allow: 'granted',
    body: z.object({
      ids: z
        .array(zId)
        .min(1, 'at least one id')
        .max(TCPING_MAX_IDS, `at most ${TCPING_MAX_IDS} ids`)
        .transform((ids) => [...new Set(ids)]),
    }),
    handler: async ({ body }) => {
      const assets = await db.selectFrom('assets').select(['id', 'ip', 'port', 'accessGatewayId']).where('id', 'in', body.ids).execute();
      requireAll('资产', body.ids, assets.map((a) => a.id));
      const byId = new Map(assets.map((a) => [a.id, a]));
      return mapBounded(body.ids, TCPING_PARALLEL, async (id) => ({ id, ...(await probeAsset(db, gateways, byId.get(id)!)) }));
    },
  }),
];
