import { describe, expect, it } from 'vitest';
import { CertificateError } from '../../../../server/modules/sessions/rdp/certificate.ts';
import {
  certificateChanged,
  certificateFailure,
  connectFailure,
  detailOf,
  endReason,
  RDP_ENDED,
  RDP_FAILED,
  REASON,
  reasonOf,
  userRdpReason,
} from '../../../../server/modules/sessions/rdp/reasons.ts';
import { ConnectError } from '../../../../server/modules/sessions/reach.ts';

/*
 * FreeRDP's output → the sentence a user reads (rdp/reasons.ts): its error names and messages as FreeRDP 2.11 prints
 * them, the detail the row keeps for admins, and the user's sentence cut from the row's message (no address, no
 * certificate name, nothing of FreeRDP's).
 */

/** A FreeRDP 2.11 log line. */
const line = (level: string, tag: string, text: string) => `[12:00:01:123] [4242:4243] [${level}][${tag}] - ${text}`;

describe('reasonOf', () => {
  it.each([
    [line('ERROR', 'com.freerdp.core', 'freerdp_set_last_error_ex ERRCONNECT_LOGON_FAILURE [0x00020014]'), REASON.login],
    [line('ERROR', 'com.freerdp.core.nla', 'SEC_E_LOGON_DENIED / ERRCONNECT_AUTHENTICATION_FAILED'), REASON.login],
    [line('ERROR', 'com.freerdp.core', 'ERRCONNECT_PASSWORD_EXPIRED [0x0002000E]'), REASON.passwordExpired],
    [line('ERROR', 'com.freerdp.core.nla', 'STATUS_PASSWORD_MUST_CHANGE'), REASON.passwordExpired],
    [line('ERROR', 'com.freerdp.core', 'ERRCONNECT_ACCOUNT_LOCKED_OUT [0x00020012]'), REASON.accountRestricted],
    [line('ERROR', 'com.freerdp.core', 'ERRCONNECT_DNS_NAME_NOT_FOUND [0x00020005]'), REASON.dns],
    [line('ERROR', 'com.freerdp.core', 'ERRCONNECT_CONNECT_TRANSPORT_FAILED [0x0002000D]'), REASON.refused],
    [line('ERROR', 'com.freerdp.core.tcp', 'failed to connect to 10.0.0.1: Connection refused'), REASON.refused],
    [line('ERROR', 'com.freerdp.core', 'ERRCONNECT_TLS_CONNECT_FAILED [0x00020008]'), REASON.security],
    [line('ERROR', 'com.freerdp.core.nego', 'Error: SSL_NOT_ALLOWED_BY_SERVER'), REASON.security],
    [`${line('ERROR', 'com.freerdp.crypto', 'The host key for 127.0.0.1:3389 has changed')}\n${line('ERROR', 'com.freerdp.crypto', '@@@  WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!  @@@')}`, REASON.certificate],
    [line('ERROR', 'com.freerdp.crypto', 'CERTIFICATE NAME MISMATCH!'), REASON.certificate],
    [line('INFO', 'com.freerdp.core', 'ERRINFO_DISCONNECTED_BY_OTHERCONNECTION (0x00000005)'), REASON.otherConnection],
    [line('INFO', 'com.freerdp.core', 'ERRINFO_IDLE_TIMEOUT (0x00000003)'), REASON.idle],
    [line('INFO', 'com.freerdp.core', 'ERRINFO_LOGOFF_BY_USER (0x0000000C)'), REASON.loggedOff],
    [line('INFO', 'com.freerdp.core', 'ERRINFO_RPC_INITIATED_DISCONNECT (0x00000001)'), REASON.byServer],
  ])('%s', (output, reason) => {
    expect(reasonOf(output)).toBe(reason);
  });

  it('a certificate refusal wins over the failure it causes; an output with no error says nothing', () => {
    const output = [line('ERROR', 'com.freerdp.crypto', 'certificate not trusted, automatically denying'), line('ERROR', 'com.freerdp.core', 'ERRCONNECT_TLS_CONNECT_FAILED')].join('\n');
    expect(reasonOf(output)).toBe(REASON.certificate);
    expect(reasonOf(line('INFO', 'com.freerdp.client.x11', 'Loading Dynamic Virtual Channel rdpgfx'))).toBeUndefined();
    expect(reasonOf('')).toBeUndefined();
  });
});

describe('the row and the user', () => {
  const loginOutput = [
    line('INFO', 'com.freerdp.client.x11', 'Loading Dynamic Virtual Channel rdpgfx'),
    line('ERROR', 'com.freerdp.core', 'freerdp_set_last_error_ex ERRCONNECT_LOGON_FAILURE [0x00020014]'),
    line('ERROR', 'com.freerdp.core', 'freerdp_set_last_error_ex ERRCONNECT_LOGON_FAILURE [0x00020014]'),
    line('ERROR', 'com.freerdp.core.transport', 'BIO_read returned an error'),
  ].join('\n');

  it('detailOf keeps the deciding lines, once, without the timestamps', () => {
    expect(detailOf(loginOutput)).toBe('ERROR freerdp_set_last_error_ex ERRCONNECT_LOGON_FAILURE [0x00020014]; ERROR BIO_read returned an error');
    expect(detailOf(line('ERROR', 'x', 'y'.repeat(700))).length).toBe(601);
    expect(detailOf(line('ERROR', 'com.freerdp.crypto', '@@@  WARNING  @@@'))).toBe('');
  });

  it('a failed connect: 806, the sentence then the detail; the user reads the sentence only', () => {
    const e = connectFailure({ code: 131, signal: null, output: loginOutput });
    expect(e).toBeInstanceOf(ConnectError);
    expect(e.code).toBe(806);
    expect(e.message).toBe(`${RDP_FAILED}：${REASON.login}（ERROR freerdp_set_last_error_ex ERRCONNECT_LOGON_FAILURE [0x00020014]; ERROR BIO_read returned an error; exit 131）`);
    expect(userRdpReason(806, e.message)).toBe('创建RDP连接失败：登录失败，请检查授权账户和密码');
    // An exit that says nothing known.
    const unknown = connectFailure({ code: 1, signal: null, output: 'nothing useful' });
    expect(unknown.message).toBe(`${RDP_FAILED}：${REASON.unknown}（exit 1）`);
  });

  it('an established session that ends: logged off, another connection, killed', () => {
    expect(endReason({ code: 0, signal: null, output: '' })).toBe(`${RDP_ENDED}：${REASON.loggedOff}（exit 0）`);
    expect(endReason({ code: 0, signal: null, output: line('INFO', 'com.freerdp.core', 'ERRINFO_DISCONNECTED_BY_OTHERCONNECTION (0x00000005)') })).toMatch(
      new RegExp(`^${RDP_ENDED}：${REASON.otherConnection}（`),
    );
    expect(endReason({ code: null, signal: 'SIGKILL', output: '' })).toBe(`${RDP_ENDED}：${REASON.byServer}（signal SIGKILL）`);
    expect(userRdpReason(-1, endReason({ code: null, signal: 'SIGKILL', output: '' }))).toBe('远程桌面已断开：服务器断开了连接');
  });

  it('the certificate: a changed one names both fingerprints for the row only; the check’s failures', () => {
    const e = certificateChanged('SHA256:old', 'SHA256:new', 'evil.example');
    expect(e.code).toBe(806);
    expect(e.message).toContain('SHA256:old → 对方出示 SHA256:new（名称 evil.example）');
    const user = userRdpReason(e.code, e.message);
    expect(user).toBe(`${RDP_FAILED}：${REASON.certificate}`);
    expect(user).not.toMatch(/SHA256|evil/);
    expect(certificateFailure(new CertificateError('no-tls', 'x')).message).toMatch(new RegExp(`^${RDP_FAILED}：${REASON.rdpOnly}`));
    expect(certificateFailure(new CertificateError('protocol', 'x')).message).toMatch(new RegExp(`^${RDP_FAILED}：${REASON.notRdp}`));
    expect(certificateFailure(new CertificateError('timeout', 'x')).message).toMatch(new RegExp(`^${RDP_FAILED}：${REASON.timeout}`));
    expect(certificateFailure(new CertificateError('tls', 'x')).message).toMatch(new RegExp(`^${RDP_FAILED}：${REASON.security}`));
  });

  it('userRdpReason: a foreign 806 message is not shown; other codes keep theirs', () => {
    expect(userRdpReason(806, 'connect ECONNREFUSED 10.0.0.1:3389')).toBe(`${RDP_FAILED}：${REASON.unknown}`);
    expect(userRdpReason(806, `${RDP_FAILED}：something else at 10.0.0.1`)).toBe(`${RDP_FAILED}：${REASON.unknown}`);
    expect(userRdpReason(-1, '远程桌面会话数已达上限，请稍后再试')).toBe('远程桌面会话数已达上限，请稍后再试');
  });
});
