import { createHash } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';

/*
 * The RDP server's TLS certificate, read by the bastion itself before FreeRDP is started (on a socket `reach()` gives):
 * an X.224 Connection Request asking for TLS or NLA (MS-RDPBCGR 2.2.1.1, RDP_NEG_REQ), the Connection Confirm's
 * selected protocol, then a TLS handshake over the same socket and the peer certificate. Nothing else is sent: no user
 * name, no password. The fingerprint is kept in the SSH host key's format (`SHA256:` + unpadded base64 of the SHA-256
 * of the DER certificate), so that the asset's `hostKey` column, its trust route and its form hold it unchanged;
 * FreeRDP is then given it as hex (`/cert:fingerprint:sha256:aa:bb:…`) and checks its own connection against it.
 */

const PROTOCOL_SSL = 0x1;
const PROTOCOL_HYBRID = 0x2;
const PROTOCOL_HYBRID_EX = 0x8;

/** Why the certificate could not be read: the relay words it (reasons.ts). */
export class CertificateError extends Error {
  constructor(
    readonly kind: 'closed' | 'timeout' | 'protocol' | 'no-tls' | 'negotiation' | 'tls',
    message: string,
  ) {
    super(message);
  }
}

export interface ServerCertificate {
  /** `SHA256:<base64>`, as assets.host_key holds it. */
  fingerprint: string;
  /** The certificate's subject CN (or the whole subject), for the admins' detail. */
  name: string;
  /** The protocol the server selected (1 TLS, 2 NLA, 8 NLA-EX). */
  selected: number;
}

/** RDP_NEG_FAILURE codes (MS-RDPBCGR 2.2.1.2.2). */
const NEG_FAILURES: Record<number, string> = {
  1: 'SSL_REQUIRED_BY_SERVER',
  2: 'SSL_NOT_ALLOWED_BY_SERVER',
  3: 'SSL_CERT_NOT_ON_SERVER',
  4: 'INCONSISTENT_FLAGS',
  5: 'HYBRID_REQUIRED_BY_SERVER',
  6: 'SSL_WITH_USER_AUTH_REQUIRED_BY_SERVER',
};

/** The X.224 Connection Request with an RDP_NEG_REQ for `protocols`. */
export function connectionRequest(protocols = PROTOCOL_SSL | PROTOCOL_HYBRID | PROTOCOL_HYBRID_EX): Buffer {
  const b = Buffer.alloc(19);
  b.writeUInt8(3, 0); // TPKT version
  b.writeUInt16BE(19, 2);
  b.writeUInt8(14, 4); // X.224 length indicator
  b.writeUInt8(0xe0, 5); // CR
  // dst-ref, src-ref, class: 0
  b.writeUInt8(0x01, 11); // TYPE_RDP_NEG_REQ
  b.writeUInt16LE(8, 13);
  b.writeUInt32LE(protocols, 15);
  return b;
}

/** The protocol the Connection Confirm selects; CertificateError when it refuses or is malformed. */
export function parseConfirm(pdu: Buffer): number {
  if (pdu.length < 11 || pdu[0] !== 3 || (pdu[5]! & 0xf0) !== 0xd0) throw new CertificateError('protocol', `not an X.224 Connection Confirm: ${pdu.subarray(0, 16).toString('hex')}`);
  if (pdu.length < 19) return 0; // no negotiation data: standard RDP security
  const type = pdu[11];
  if (type === 0x02) return pdu.readUInt32LE(15);
  if (type === 0x03) {
    const code = pdu.readUInt32LE(15);
    throw new CertificateError('negotiation', `the server refused the security negotiation: ${NEG_FAILURES[code] ?? code}`);
  }
  throw new CertificateError('protocol', `unexpected negotiation type ${type}`);
}

/** `SHA256:<base64>` → FreeRDP's `aa:bb:…` hex. */
export const freerdpFingerprint = (fingerprint: string): string =>
  Buffer.from(fingerprint.replace(/^SHA256:/, ''), 'base64')
    .toString('hex')
    .replace(/(..)(?!$)/g, '$1:');

export const fingerprintOfDer = (der: Buffer): string => `SHA256:${createHash('sha256').update(der).digest('base64').replace(/=+$/, '')}`;

/** Reads the server's certificate on `socket` (destroyed afterwards, whatever happens). */
export function readServerCertificate(socket: Duplex, timeoutMs = 10_000): Promise<ServerCertificate> {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (error: Error | null, value?: ServerCertificate) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(value as ServerCertificate);
    };
    const timer = setTimeout(() => finish(new CertificateError('timeout', `no TLS certificate within ${timeoutMs / 1000} s`)), timeoutMs);
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length < 4) return;
      const length = buffer.readUInt16BE(2);
      if (buffer[0] !== 3 || length < 11 || length > 512) return finish(new CertificateError('protocol', `not an RDP server (answered ${buffer.subarray(0, 8).toString('hex')})`));
      if (buffer.length < length) return;
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.pause();
      let selected: number;
      try {
        selected = parseConfirm(buffer.subarray(0, length));
      } catch (error) {
        return finish(error as Error);
      }
      if ((selected & (PROTOCOL_SSL | PROTOCOL_HYBRID | PROTOCOL_HYBRID_EX)) === 0) {
        return finish(new CertificateError('no-tls', 'the server offers standard RDP security only (no TLS, no certificate to check)'));
      }
      const tls = tlsConnect({ socket, rejectUnauthorized: false, servername: undefined });
      tls.once('secureConnect', () => {
        const cert = tls.getPeerCertificate();
        tls.destroy();
        if (!cert?.raw) return finish(new CertificateError('tls', 'the server showed no certificate'));
        const name = cert.subject?.CN ? String(cert.subject.CN) : Object.entries(cert.subject ?? {}).map(([k, v]) => `${k}=${v}`).join(', ');
        finish(null, { fingerprint: fingerprintOfDer(cert.raw), name, selected });
      });
      tls.once('error', (err) => finish(new CertificateError('tls', `TLS handshake failed: ${err.message}`)));
    };
    const onClose = () => finish(new CertificateError('closed', 'the server closed the connection during the negotiation'));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', (err) => finish(new CertificateError('closed', err.message)));
    socket.write(connectionRequest());
    socket.resume();
  });
}
