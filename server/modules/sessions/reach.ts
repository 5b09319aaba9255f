import net from 'node:net';
import type { Duplex } from 'node:stream';
import { SOCKS_PASSWORD } from '../assets/index.ts';
import { given } from '../credentials/index.ts';
import { describeSshError } from '../gateways/index.ts';
import type { SessionDeps } from './deps.ts';
import { type SocksProxy, socksConnect } from './socks.ts';

/*
 * Reaching an asset's host (contract §5.1), for any relay: directly, through the asset's access gateway (an SSH
 * tunnel the gateways module keeps), or through its SOCKS5 proxy (socks.ts; not both). A relay whose client dials
 * by itself asks `tunnel` (undefined = direct); one that takes a socket asks `reach`.
 */

export const MSG_NO_ASSET = '资产不存在或已被删除';
export const MSG_SOCKS_AND_GATEWAY = '资产不能同时使用接入网关和 SOCKS 代理';
export const MSG_SOCKS_INCOMPLETE = 'SOCKS 代理的地址或端口未设置';

export interface Target {
  host: string;
  port: number;
  accessGatewayId: string | null;
  socks?: SocksProxy;
}

/** Which way failed: the relay words it (the SSH relay keeps 1.3.9's codes and sentences). */
export class ReachError extends Error {
  constructor(
    readonly via: 'proxy' | 'gateway' | 'direct',
    message: string,
  ) {
    super(message);
  }
}

/** The asset's address and way; ConnectError when the asset is gone (800) or its proxy settings are wrong (−1). */
export async function targetOf({ db, box }: Pick<SessionDeps, 'db' | 'box'>, assetId: string): Promise<Target> {
  const asset = await db.selectFrom('assets').select(['ip', 'port', 'accessGatewayId']).where('id', '=', assetId).executeTakeFirst();
  if (!asset) throw new ConnectError(800, MSG_NO_ASSET);
  const attributes = new Map(
    (await db.selectFrom('assetAttributes').select(['name', 'value']).where('assetId', '=', assetId).where('name', 'like', 'socks-proxy-%').execute()).map((a) => [a.name, a.value]),
  );
  const target: Target = { host: asset.ip, port: asset.port, accessGatewayId: asset.accessGatewayId };
  if (attributes.get('socks-proxy-enable') !== 'true') return target;
  if (asset.accessGatewayId) throw new ConnectError(-1, MSG_SOCKS_AND_GATEWAY);
  const port = Number(attributes.get('socks-proxy-port'));
  const host = attributes.get('socks-proxy-host');
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) throw new ConnectError(-1, MSG_SOCKS_INCOMPLETE);
  const socks = { host, port, username: given(attributes.get('socks-proxy-username')), password: box.decryptNullable(attributes.get(SOCKS_PASSWORD) ?? null) ?? undefined };
  return { ...target, socks };
}

/**
 * A gateway's refusal in the §5.4 words, for every relay (a gateway is an SSH tunnel whatever the protocol): 803 when
 * the gateway itself is down or gone, 804 when its tunnel to the asset failed.
 */
export function gatewayError(why: string): ConnectError {
  if (/^接入网关(不可用|不存在)|服务正在关闭/.test(why)) return new ConnectError(803, `获取接入网关失败：${why}`);
  return new ConnectError(804, `创建SSH隧道失败：${why}`);
}

/** A socket to the target through its proxy or gateway; undefined when it is reached directly. Rejects with a ReachError. */
export async function tunnel(deps: Pick<SessionDeps, 'gateways'>, target: Target, timeoutMs: number): Promise<Duplex | undefined> {
  if (target.socks) {
    try {
      return await socksConnect(target.socks, target.host, target.port, timeoutMs);
    } catch (err) {
      throw new ReachError('proxy', (err as Error).message);
    }
  }
  if (target.accessGatewayId) {
    try {
      return await deps.gateways.connect(target.accessGatewayId, target.host, target.port, timeoutMs);
    } catch (err) {
      throw new ReachError('gateway', err instanceof Error ? err.message : String(err));
    }
  }
  return undefined;
}

/** A connected socket to the target, whichever way it is reached. Rejects with a ReachError. */
export async function reach(deps: Pick<SessionDeps, 'gateways'>, target: Target, timeoutMs: number): Promise<Duplex> {
  const via = await tunnel(deps, target, timeoutMs);
  if (via) return via;
  return new Promise((resolve, reject) => {
    const socket = net.connect(target.port, target.host);
    const fail = (why: string) => {
      socket.destroy();
      reject(new ReachError('direct', why));
    };
    socket.setTimeout(timeoutMs, () => fail(`超时（${timeoutMs / 1000} 秒）`));
    // Worded as the SSH relay words its own socket's errors (`连接被拒绝（…）`, `主机不可达`…).
    socket.once('error', (err) => fail(describeSshError(err)));
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      socket.removeAllListeners('timeout');
      socket.setTimeout(0);
      resolve(socket);
    });
  });
}

/** A connect failure (contract §5.4): the close code and the row's zh-CN detail (the user may read less: userReason). */
export class ConnectError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}


