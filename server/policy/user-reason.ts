import { type Lng, text } from '../lib/i18n.ts';

/*
 * What a user (not an admin) is told when a connection to an asset fails (issue 28 rule 6). The connect errors carry
 * the system's detail — `连接被拒绝（127.0.0.1:22）`, `connect ECONNREFUSED 10.0.0.7:22`, a gateway's address in its own
 * error — and the portal hides an asset's address on purpose (portal.ts), so neither the terminal's closed frame nor
 * the portal's `activeMessage` may carry it. A user gets a fixed sentence: the failing step (SSH, the SOCKS proxy,
 * the access gateway, its tunnel) and one of the fixed reasons below, nothing copied from the error. The detail stays
 * where admins read it: the session row's `message` (session history, `/sessions/:id`, admins only), the asset's own
 * `activeMessage` in the admin asset list, and the server log.
 */

interface Phrase {
  zh: string;
  en: string;
  /** Also found by this (a system text in English); otherwise by the zh-CN words. */
  match?: RegExp;
}

/** Reasons fit for a user: fixed words, no address, port, host name or raw system text. Found by substring. */
const PHRASES: readonly Phrase[] = [
  // VNC: the bastion's RFB handshake with the target (sessions/vnc/rfb-reader.ts); before SSH's `握手超时`.
  { zh: 'VNC 认证失败，请检查资产的密码', en: "VNC authentication failed; check the asset's password" },
  { zh: 'VNC 服务器要求密码，但资产未设置密码', en: 'the VNC server asks for a password and the asset has none' },
  { zh: 'VNC 服务器未提供堡垒机支持的安全类型', en: 'the VNC server offers no security type the bastion supports' },
  { zh: 'VNC 服务器拒绝了连接', en: 'the VNC server refused the connection' },
  { zh: 'VNC 服务器的协议数据无效', en: 'the VNC server sent invalid protocol data' },
  { zh: 'VNC 握手超时', en: 'the VNC handshake timed out' },
  { zh: 'VNC 服务器在握手期间关闭了连接', en: 'the VNC server closed the connection during the handshake' },
  { zh: '认证失败，请检查授权账户、密码或私钥', en: 'authentication failed; check the account, password or private key' },
  { zh: '握手超时', en: 'the SSH handshake timed out' },
  { zh: '代理拒绝连接', en: 'the proxy refused the connection' },
  { zh: '代理认证失败', en: 'the proxy refused its user name or password' },
  { zh: '代理要求认证', en: 'the proxy asks for a user name and password' },
  { zh: '代理不接受用户名密码认证', en: 'the proxy does not take a user name and password' },
  { zh: '代理关闭了连接', en: 'the proxy closed the connection' },
  { zh: '不是 SOCKS5 代理', en: 'not a SOCKS5 proxy' },
  { zh: '连接被拒绝', en: 'connection refused' },
  { zh: '连接超时', en: 'connection timed out' },
  { zh: '主机不可达', en: 'host unreachable' },
  { zh: '网络不可达', en: 'network unreachable' },
  { zh: '无法解析主机名', en: 'the host name cannot be resolved' },
  { zh: '连接被重置', en: 'connection reset' },
  { zh: '无法解析私钥', en: 'the private key cannot be read', match: /Cannot parse privateKey|无法解析私钥/ },
  { zh: '接入网关的配置刚刚变更，请重试', en: 'the access gateway was just changed; try again' },
  // Telnet: the bastion types the account at the host's prompts (sessions/telnet/login.ts).
  { zh: '登录失败，请检查授权账户和密码', en: 'login failed; check the account and password' },
  { zh: '远程主机关闭了连接', en: 'the remote host closed the connection' },
];
const found = (p: Phrase, text: string) => (p.match ? p.match.test(text) : text.includes(p.zh));

/**
 * Passed on whole: a refused host key names the two fingerprints (credentials/host-key.ts), which the user needs to
 * tell an admin and which say nothing about where the host is.
 */
const WHOLE = /^：主机密钥已变更（/;
/** When no fixed reason is recognised. */
const UNKNOWN: Phrase = { zh: '连接失败', en: 'connection failed' };

/** The failing step, longest first (a SOCKS failure is also an SSH client failure). */
const HEADS: readonly (Phrase & { code: number; alone?: true })[] = [
  { code: 806, zh: '创建SSH客户端失败：SOCKS 代理连接失败', en: 'Could not connect to the asset: the SOCKS proxy failed' },
  { code: 803, zh: '获取接入网关失败：接入网关不可用', en: 'The access gateway is unavailable' },
  { code: 803, zh: '获取接入网关失败：接入网关不存在', en: 'The access gateway does not exist', alone: true },
  { code: 803, zh: '获取接入网关失败：服务正在关闭', en: 'The server is shutting down', alone: true },
  { code: 803, zh: '获取接入网关失败', en: 'Could not use the access gateway' },
  { code: 804, zh: '创建SSH隧道失败', en: 'The access gateway could not reach the asset' },
  { code: 806, zh: '创建Telnet连接失败：SOCKS 代理连接失败', en: 'Could not connect to the Telnet host: the SOCKS proxy failed' },
  { code: 806, zh: '创建Telnet连接失败', en: 'Could not connect to the Telnet host' },
  { code: 806, zh: '创建VNC连接失败：SOCKS 代理连接失败', en: 'Could not connect to the VNC desktop: the SOCKS proxy failed' },
  { code: 806, zh: '创建VNC连接失败', en: 'Could not connect to the VNC desktop' },
  // Last: a message of code 806 under no known head is said under this one.
  { code: 806, zh: '创建SSH客户端失败', en: 'Could not connect to the asset' },
];

// Every sentence a user may get is declared in both languages once, here (the closed frame is said per socket).
const said = new Map<string, string>();
for (const head of HEADS) {
  // The step alone too: a message passed on whole (a refused host key) is said as `<step>: <its own sentence>`.
  text(head.zh, head.en);
  const sentences = head.alone ? [[head.zh, head.en]] : [...PHRASES, UNKNOWN].map((p) => [`${head.zh}：${p.zh}`, `${head.en}: ${p.en}`]);
  for (const [zh, en] of sentences as [string, string][]) said.set(zh, text(zh, en));
}

/** Codes whose message carries the connection's detail (contract §5.4: 803 gateway, 804 tunnel, 806 SSH client). */
const CONNECT_CODES = new Set([803, 804, 806]);

/**
 * The closed frame's text for a session that failed to connect: for codes 803/804/806 a fixed sentence without the
 * detail (above); other codes carry fixed texts already and pass unchanged.
 */
export function userConnectReason(code: number, message: string): string {
  if (!CONNECT_CODES.has(code)) return message;
  const head =
    HEADS.find((h) => h.code === code && (message === h.zh || message.startsWith(`${h.zh}：`))) ??
    // The step's plainest head (the last of its code).
    (HEADS.filter((h) => h.code === code).at(-1) as (typeof HEADS)[number]);
  if (head.alone) return head.zh;
  const rest = message.slice(head.zh.length);
  if (WHOLE.test(rest)) return message;
  const phrase = PHRASES.find((p) => found(p, rest)) ?? UNKNOWN;
  return said.get(`${head.zh}：${phrase.zh}`) ?? `${head.zh}：${UNKNOWN.zh}`;
}

/**
 * The portal's `activeMessage` for a user: '' when reachable, else one of the fixed reasons (in `lng`), never the
 * probe's own text (`连接被拒绝：connect ECONNREFUSED 127.0.0.1:1`).
 */
export function userProbeReason(active: boolean, message: string, lng: Lng): string {
  if (active || message === '') return '';
  const phrase = PHRASES.find((p) => found(p, message)) ?? UNKNOWN;
  return lng === 'en-US' ? phrase.en : phrase.zh;
}
