import { text } from '../../../lib/i18n.ts';
import { ConnectError } from '../reach.ts';
import type { CertificateError } from './certificate.ts';

/*
 * Why an RDP session failed or ended, from the certificate check (certificate.ts) and xfreerdp's exit and output
 * (freerdp.ts). The user reads a fixed sentence (no address, no certificate name, nothing copied from FreeRDP:
 * policy/user-reason.ts's rule); the row keeps the sentence and, after `：`, the detail (the lines of FreeRDP that
 * decided it, its exit code; for a changed certificate the names and fingerprints) for admins.
 *
 * Codes as the terminal's (§5.4): 806 the connection could not be made, −1 an established session that ended.
 */

export const RDP_FAILED = text('创建RDP连接失败', 'Could not connect to the RDP host');
export const RDP_ENDED = text('远程桌面已断开', 'The remote desktop disconnected');

const PAIRS = {
  login: ['登录失败，请检查授权账户和密码', 'login failed; check the account and password'],
  certificate: [
    '服务器证书已变更，连接已在登录前拒绝，以免密码发往冒充的主机；如确认服务器更换了证书，请由所有者或超级管理员信任新的证书',
    'The server certificate has changed, so the connection was refused before logging in, lest the password reach an impostor; if the server really changed its certificate, its owner or the super admin may trust the new one',
  ],
  refused: ['连接被拒绝', 'connection refused'],
  timeout: ['连接超时', 'connection timed out'],
  unreachable: ['主机不可达', 'host unreachable'],
  dns: ['无法解析主机名', 'the host name cannot be resolved'],
  security: ['TLS 或安全协商失败', 'the TLS or security negotiation failed'],
  rdpOnly: ['服务器只提供标准 RDP 安全层，没有可校验的证书，堡垒机不连接', 'the server offers standard RDP security only, with no certificate to check; the bastion does not connect'],
  notRdp: ['对方不是 RDP 服务器', 'not an RDP server'],
  byServer: ['服务器断开了连接', 'the server disconnected'],
  otherConnection: ['另一个连接登录了同一账户', 'another connection logged in to the same account'],
  idle: ['服务器因空闲结束了会话', 'the server ended the idle session'],
  loggedOff: ['远程会话已注销', 'the remote session logged off'],
  accountRestricted: ['账户被禁用、锁定或不允许登录', 'the account is disabled, locked or not allowed to log in'],
  passwordExpired: ['密码已过期，需要修改', 'the password has expired and must be changed'],
  started: ['远程桌面程序无法启动', 'the remote desktop program could not start'],
  unknown: ['连接失败', 'connection failed'],
} as const satisfies Record<string, readonly [string, string]>;

export const REASON = Object.fromEntries(Object.entries(PAIRS).map(([k, [zh, en]]) => [k, text(zh, en)])) as { readonly [K in keyof typeof PAIRS]: (typeof PAIRS)[K][0] };

export type Reason = (typeof REASON)[keyof typeof REASON];

// Every sentence a user may read, declared once in both languages.
for (const [head, en] of [
  [RDP_FAILED, 'Could not connect to the RDP host'],
  [RDP_ENDED, 'The remote desktop disconnected'],
] as const) {
  for (const [zh, reasonEn] of Object.values(PAIRS)) text(`${head}：${zh}`, `${en}: ${reasonEn}`);
}

interface Rule {
  test: RegExp;
  reason: Reason;
}

/** FreeRDP's error names (libfreerdp/core/errconnect.c, errinfo.c) and messages → a reason. First match wins. */
const RULES: readonly Rule[] = [
  { test: /certificate not trusted|automatically denying|CERTIFICATE NAME MISMATCH|HOST IDENTIFICATION HAS CHANGED/i, reason: REASON.certificate },
  { test: /ERRCONNECT_(PASSWORD_EXPIRED|PASSWORD_MUST_CHANGE|PASSWORD_CERTAINLY_EXPIRED)|STATUS_PASSWORD_(EXPIRED|MUST_CHANGE)/, reason: REASON.passwordExpired },
  { test: /ERRCONNECT_(ACCOUNT_DISABLED|ACCOUNT_RESTRICTION|ACCOUNT_LOCKED_OUT|ACCOUNT_EXPIRED|LOGON_TYPE_NOT_GRANTED|INVALID_LOGON_HOURS|INVALID_WORKSTATION)|STATUS_ACCOUNT_/, reason: REASON.accountRestricted },
  { test: /ERRCONNECT_(LOGON_FAILURE|AUTHENTICATION_FAILED|WRONG_PASSWORD|NO_OR_MISSING_CREDENTIALS)|STATUS_LOGON_FAILURE|ERRINFO_SERVER_INSUFFICIENT_PRIVILEGES|Authentication failure/i, reason: REASON.login },
  { test: /ERRCONNECT_DNS_(ERROR|NAME_NOT_FOUND)|getaddrinfo/i, reason: REASON.dns },
  { test: /ERRCONNECT_CONNECT_CANCELLED|ERRCONNECT_CONNECT_TRANSPORT_FAILED|ERRCONNECT_CONNECT_FAILED|Connection refused/i, reason: REASON.refused },
  { test: /ERRCONNECT_(TLS_CONNECT_FAILED|SECURITY_NEGO_CONNECT_FAILED|SECURITYNEGO_CONNECT_FAILED)|SSL_NOT_ALLOWED|HYBRID_REQUIRED|nego/i, reason: REASON.security },
  { test: /ERRINFO_DISCONNECTED_BY_OTHERCONNECTION|ERRINFO_LOGOFF_BY_OTHER/i, reason: REASON.otherConnection },
  { test: /ERRINFO_IDLE_TIMEOUT|ERRINFO_LOGON_TIMEOUT|ERRINFO_SERVER_(IDLE|LOGON)_TIMEOUT/i, reason: REASON.idle },
  { test: /ERRINFO_LOGOFF_BY_USER|ERRINFO_LOGOFF_BY_SERVER|ERRINFO_RPC_INITIATED_LOGOFF/i, reason: REASON.loggedOff },
  { test: /ERRINFO_|ERRCONNECT_/, reason: REASON.byServer },
];

/** The lines of FreeRDP's output that explain its end (errors, certificate lines), for the row. */
export function detailOf(output: string, limit = 600): string {
  const lines = output
    .split('\n')
    .filter((l) => /\[ERROR\]|ERRCONNECT_|ERRINFO_|certificate/i.test(l) && !/@@@|Caught signal|^\s*\d+:|backtrace/.test(l))
    .map((l) => l.replace(/^\[[\d:]+\] \[\d+:\d+\] \[(\w+)\]\[[\w.]+\] - /, '$1 ').trim())
    .filter(Boolean);
  const text = [...new Set(lines)].join('; ');
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** The reason FreeRDP's output gives, or undefined. */
export const reasonOf = (output: string): Reason | undefined => RULES.find((r) => r.test.test(output))?.reason;

/**
 * An xfreerdp that exited while connecting: ConnectError(806) whose message is the user's sentence and, after it, the
 * detail for the row (`创建RDP连接失败：登录失败，请检查授权账户和密码：ERROR … ERRCONNECT_LOGON_FAILURE; exit 131`).
 */
export function connectFailure(exit: { code: number | null; signal: string | null; output: string }): ConnectError {
  const reason = reasonOf(exit.output) ?? REASON.unknown;
  return new ConnectError(806, withDetail(`${RDP_FAILED}：${reason}`, exitDetail(exit)));
}

/** An established session's end: the row's message (code −1). */
export function endReason(exit: { code: number | null; signal: string | null; output: string }): string {
  if (exit.code === 0 && !/ERRINFO_/.test(exit.output)) return withDetail(`${RDP_ENDED}：${REASON.loggedOff}`, exitDetail(exit));
  return withDetail(`${RDP_ENDED}：${reasonOf(exit.output) ?? REASON.byServer}`, exitDetail(exit));
}

const exitDetail = (exit: { code: number | null; signal: string | null; output: string }) =>
  [detailOf(exit.output), exit.signal ? `signal ${exit.signal}` : `exit ${exit.code}`].filter(Boolean).join('; ');
const withDetail = (sentence: string, detail: string) => (detail ? `${sentence}（${detail}）` : sentence);

/** The certificate check's failure (before FreeRDP runs). */
export function certificateFailure(error: CertificateError): ConnectError {
  const reason = error.kind === 'no-tls' ? REASON.rdpOnly : error.kind === 'timeout' ? REASON.timeout : error.kind === 'protocol' ? REASON.notRdp : error.kind === 'closed' ? REASON.unknown : REASON.security;
  return new ConnectError(806, withDetail(`${RDP_FAILED}：${reason}`, error.message));
}

/** A certificate other than the pinned one: the names and fingerprints go to the row only. */
export function certificateChanged(pinned: string, presented: string, name: string): ConnectError {
  return new ConnectError(806, withDetail(`${RDP_FAILED}：${REASON.certificate}`, `已记录 ${pinned} → 对方出示 ${presented}（名称 ${name}）`));
}

/** The sentence a user reads for a row's message: everything up to the detail in （…）, when it is one of ours. */
export function userRdpReason(code: number, message: string): string {
  for (const head of [RDP_FAILED, RDP_ENDED]) {
    if (!message.startsWith(`${head}：`)) continue;
    const rest = message.slice(head.length + 1);
    const reason = Object.values(REASON).find((r) => rest.startsWith(r));
    return `${head}：${reason ?? REASON.unknown}`;
  }
  return code === 806 ? `${RDP_FAILED}：${REASON.unknown}` : message;
}
