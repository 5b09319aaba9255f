import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { bound, feedFromSocket, HANDSHAKE_TIMEOUT_MS, printable, type ReadLimits, RfbError, RfbReader } from './rfb-reader.ts';
import { VNC_CHALLENGE_BYTES, vncAuthResponse } from './vnc-auth.ts';

/*
 * The RFB client handshake the bastion runs against a VNC target (RFC 6143 §7.1–7.3), on the socket `reach()` gives:
 * the version (the bastion answers 3.8 to 3.8 and later, 3.7 to 3.7, 3.3 to anything older), the security type —
 * None (1), VNC Authentication (2) with the asset's password, or VeNCrypt (19) with its anonymous-TLS subtypes
 * TLSNone and TLSVnc, in that order of preference — and the SecurityResult. `rfbConnect` stops right
 * before ClientInit; `rfbServerInit` sends ClientInit and reads the ServerInit (the browser relay, rfb-browser.ts,
 * passes the browser's ClientInit through it). The password goes into the DES answer only: never into an error,
 * a log line or anything sent elsewhere.
 */

export type RfbVersion = '3.3' | '3.7' | '3.8';

export const SECURITY_NONE = 1;
export const SECURITY_VNC_AUTH = 2;

/** Names of the security types seen in the wild, for the admins' detail of an unsupported offer. */
const SECURITY_NAMES: Record<number, string> = {
  1: 'None',
  2: 'VncAuth',
  5: 'RA2',
  6: 'RA2ne',
  16: 'Tight',
  17: 'Ultra',
  18: 'TLS',
  19: 'VeNCrypt',
  20: 'SASL',
  21: 'MD5',
  22: 'xvp',
  30: 'Apple ARD',
  113: 'MS-Logon II',
  117: 'MS-Logon II',
};
export const securityList = (types: readonly number[]): string => types.map((t) => `${t} (${SECURITY_NAMES[t] ?? 'unknown'})`).join(', ');

/** A reason string (refusal, failed SecurityResult) is at most this long; a longer length is a protocol error. */
export const MAX_REASON_BYTES = 4096;
/** ServerInit's desktop name. */
export const MAX_NAME_BYTES = 16 * 1024;

/** `RFB xxx.yyy\n`, the 12 bytes both sides start with. */
const VERSION_LINE = /^RFB (\d{3})\.(\d{3})\n$/;

export function parseVersion(line: Buffer): { major: number; minor: number } | undefined {
  const m = VERSION_LINE.exec(line.toString('latin1'));
  return m ? { major: Number(m[1]), minor: Number(m[2]) } : undefined;
}

export const versionLine = (v: RfbVersion): Buffer => Buffer.from(`RFB 003.00${v.slice(2)}\n`, 'latin1');

export interface RfbConnectOptions extends ReadLimits {
  /** The asset's VNC password; empty or absent when the target should need none. */
  password?: string;
}

export interface RfbConnected {
  /** What the bastion and the target speak. */
  version: RfbVersion;
  /** The target's own version line (`RFB 003.008`), for the row's detail. */
  serverVersion: string;
  securityType: typeof SECURITY_NONE | typeof SECURITY_VNC_AUTH | typeof SECURITY_VENCRYPT;
  /** VeNCrypt's subtype (TLSNone 257, TLSVnc 258). */
  subtype?: number;
  /**
   * The socket the session goes on with: the one given, or for VeNCrypt the TLS socket over it (paused likewise).
   * Destroying it destroys the one below.
   */
  socket: Duplex;
}

export const SECURITY_VENCRYPT = 19;
/** VeNCrypt subtypes the bastion speaks: anonymous TLS, then None or VncAuth inside it. */
export const VENCRYPT_TLS_NONE = 257;
export const VENCRYPT_TLS_VNC = 258;
const VENCRYPT_NAMES: Record<number, string> = {
  256: 'Plain',
  257: 'TLSNone',
  258: 'TLSVnc',
  259: 'TLSPlain',
  260: 'X509None',
  261: 'X509Vnc',
  262: 'X509Plain',
};
const subtypeList = (types: readonly number[]): string => types.map((t) => `${t} (${VENCRYPT_NAMES[t] ?? 'unknown'})`).join(', ');
/** A VeNCrypt subtype list longer than this is a protocol error (there are seven subtypes). */
const MAX_SUBTYPES = 32;

/**
 * Runs the client handshake up to ClientInit. Resolves with the socket to go on with (`socket`) paused and nothing
 * of it read beyond the handshake; rejects with an RfbError after destroying the socket (a half-done handshake is of
 * no further use).
 */
export async function rfbConnect(socket: Duplex, options: RfbConnectOptions = {}): Promise<RfbConnected> {
  const deadline = Date.now() + (options.timeoutMs ?? HANDSHAKE_TIMEOUT_MS);
  const step = new Step(socket, { ...options, timeoutMs: options.timeoutMs ?? HANDSHAKE_TIMEOUT_MS });
  try {
    return await clientHandshake(step, options.password ?? '', { deadline, signal: options.signal });
  } catch (err) {
    step.socket.destroy();
    socket.destroy();
    throw err instanceof RfbError ? err : (step.reader.failed ?? err);
  } finally {
    step.end();
  }
}

/** A socket being read by the handshake: its reader, feed and time bound (replaced when TLS starts). */
class Step {
  reader = new RfbReader('target');
  private attached: (() => void) | undefined;
  constructor(
    public socket: Duplex,
    limits: ReadLimits,
  ) {
    this.attach(socket, limits);
  }
  /** Stops reading the socket (idempotent): paused, the bytes beyond the reads put back. */
  end(): void {
    this.attached?.();
    this.attached = undefined;
  }
  /** Reads `socket` (the TLS one after `end`) with a new reader. */
  attach(socket: Duplex, limits: ReadLimits): void {
    this.end();
    this.socket = socket;
    const reader = new RfbReader('target');
    this.reader = reader;
    const feed = feedFromSocket(socket, reader);
    const unbound = bound(reader, limits);
    this.attached = () => {
      unbound();
      feed.detach();
    };
  }
}

async function clientHandshake(step: Step, password: string, time: { deadline: number; signal?: AbortSignal }): Promise<RfbConnected> {
  let r = step.reader;
  const line = await r.read(12);
  const offered = parseVersion(line);
  if (!offered || offered.major < 3) throw r.protocol(`not an RFB version line: "${printable(line)}"`);
  const version: RfbVersion = offered.major > 3 || offered.minor >= 8 ? '3.8' : offered.minor === 7 ? '3.7' : '3.3';
  step.socket.write(versionLine(version));

  let type: number;
  if (version === '3.3') {
    // 3.3: the server picks the type itself.
    type = await r.u32();
    if (type === 0) throw await refused(r);
    if (type !== SECURITY_NONE && type !== SECURITY_VNC_AUTH) throw new RfbError('target', 'unsupported-security', securityList([type]), [type]);
  } else {
    const count = await r.u8();
    if (count === 0) throw await refused(r);
    const types = [...(await r.read(count))];
    // The plainest first: VeNCrypt's anonymous TLS authenticates nobody and only adds cost on the bastion's hop.
    if (types.includes(SECURITY_NONE)) type = SECURITY_NONE;
    else if (types.includes(SECURITY_VNC_AUTH)) type = SECURITY_VNC_AUTH;
    else if (types.includes(SECURITY_VENCRYPT)) type = SECURITY_VENCRYPT;
    else throw new RfbError('target', 'unsupported-security', `offered: ${securityList(types)}`, types);
    if (type === SECURITY_VNC_AUTH && !password) throw new RfbError('target', 'password-required');
    step.socket.write(Buffer.of(type));
  }

  let subtype: number | undefined;
  let inner = type; // the authentication that runs (inside TLS for VeNCrypt)
  if (type === SECURITY_VENCRYPT) {
    subtype = await veNCrypt(step, password);
    // TLS reads the socket from here: ours stops first (nothing of the server's is pending: it waits for our hello).
    step.end();
    const secure = await startTls(step.socket, Math.max(1, time.deadline - Date.now()), time.signal);
    step.attach(secure, { timeoutMs: Math.max(1, time.deadline - Date.now()), signal: time.signal });
    r = step.reader;
    inner = subtype === VENCRYPT_TLS_VNC ? SECURITY_VNC_AUTH : SECURITY_NONE;
  }

  if (inner === SECURITY_VNC_AUTH) {
    if (!password) throw new RfbError('target', 'password-required');
    const challenge = await r.read(VNC_CHALLENGE_BYTES);
    step.socket.write(vncAuthResponse(challenge, password));
  }

  // SecurityResult: always in 3.8, only after VncAuth before it.
  if (inner === SECURITY_VNC_AUTH || version === '3.8') {
    const status = await r.u32();
    if (status !== 0) {
      const kind = inner === SECURITY_VNC_AUTH ? 'auth' : 'refused';
      // 3.8 gives a reason; some servers close without it, which is the same failure.
      const reason = version === '3.8' ? await reasonOrNothing(r) : '';
      throw new RfbError('target', kind, reason ? `the server said: ${reason}` : `SecurityResult ${status}`);
    }
  }
  // checked above: None, VncAuth or VeNCrypt
  return { version, serverVersion: line.toString('latin1').trim(), securityType: type as RfbConnected['securityType'], subtype, socket: step.socket };
}

/** VeNCrypt 0.2's negotiation up to the TLS handshake; the subtype chosen. */
async function veNCrypt(step: Step, password: string): Promise<number> {
  const r = step.reader;
  const [major, minor] = await r.read(2);
  if (major !== 0 || (minor as number) < 2) throw r.protocol(`VeNCrypt version ${major}.${minor} (0.2 needed)`);
  step.socket.write(Buffer.of(0, 2));
  if ((await r.u8()) !== 0) throw new RfbError('target', 'refused', 'VeNCrypt 0.2 not accepted');
  const count = await r.u8();
  if (count === 0 || count > MAX_SUBTYPES) throw r.protocol(`${count} VeNCrypt subtypes`);
  const list = await r.read(4 * count);
  const subtypes = Array.from({ length: count }, (_, i) => list.readUInt32BE(4 * i));
  // X509* would need a trust decision about the target's certificate (not made yet), *Plain a user name: refused.
  const subtype = subtypes.includes(VENCRYPT_TLS_NONE) ? VENCRYPT_TLS_NONE : subtypes.includes(VENCRYPT_TLS_VNC) ? VENCRYPT_TLS_VNC : undefined;
  if (subtype === undefined) throw new RfbError('target', 'unsupported-security', `offered: VeNCrypt with ${subtypeList(subtypes)}`, [SECURITY_VENCRYPT]);
  if (subtype === VENCRYPT_TLS_VNC && !password) throw new RfbError('target', 'password-required');
  const choice = Buffer.alloc(4);
  choice.writeUInt32BE(subtype);
  step.socket.write(choice);
  if ((await r.u8()) !== 1) throw new RfbError('target', 'refused', `VeNCrypt subtype ${subtypeList([subtype])} not accepted`);
  return subtype;
}

/** Anonymous TLS (ECDH/DH without certificates, TLS ≤ 1.2: 1.3 has none) over the socket, as VeNCrypt's TLS* subtypes use. */
function startTls(socket: Duplex, timeoutMs: number, signal?: AbortSignal): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const secure = tlsConnect({ socket, ciphers: 'aNULL:@SECLEVEL=0', maxVersion: 'TLSv1.2', rejectUnauthorized: false });
    const done = (err?: RfbError) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      secure.off('secureConnect', ok);
      secure.off('error', fail);
      if (err) {
        secure.destroy();
        reject(err);
      } else resolve(secure);
    };
    const ok = () => done();
    const fail = (err: Error) => done(new RfbError('target', 'protocol', `TLS: ${err.message}`));
    const abort = () => done(new RfbError('target', 'aborted'));
    const timer = setTimeout(() => done(new RfbError('target', 'timeout', `no TLS handshake within ${timeoutMs} ms`)), timeoutMs);
    signal?.addEventListener('abort', abort);
    secure.once('secureConnect', ok);
    secure.once('error', fail);
  });
}

/** The reason after a refusal (no security types, 3.3's type 0). */
async function refused(r: RfbReader): Promise<RfbError> {
  const reason = printable(await r.string(MAX_REASON_BYTES, 'a reason'));
  return new RfbError('target', 'refused', reason ? `the server said: ${reason}` : '');
}

async function reasonOrNothing(r: RfbReader): Promise<string> {
  try {
    return printable(await r.string(MAX_REASON_BYTES, 'a reason'));
  } catch (err) {
    if (err instanceof RfbError && err.kind === 'closed') return '';
    throw err;
  }
}

export interface PixelFormat {
  bitsPerPixel: number;
  depth: number;
  bigEndian: boolean;
  trueColour: boolean;
  redMax: number;
  greenMax: number;
  blueMax: number;
  redShift: number;
  greenShift: number;
  blueShift: number;
}

export interface ServerInit {
  width: number;
  height: number;
  pixelFormat: PixelFormat;
  /** The desktop's name, made printable. */
  name: string;
  /** The message exactly as the target sent it (a recording's framebuffer setup; what the browser gets). */
  raw: Buffer;
}

export function parsePixelFormat(b: Buffer): PixelFormat {
  return {
    bitsPerPixel: b.readUInt8(0),
    depth: b.readUInt8(1),
    bigEndian: b.readUInt8(2) !== 0,
    trueColour: b.readUInt8(3) !== 0,
    redMax: b.readUInt16BE(4),
    greenMax: b.readUInt16BE(6),
    blueMax: b.readUInt16BE(8),
    redShift: b.readUInt8(10),
    greenShift: b.readUInt8(11),
    blueShift: b.readUInt8(12),
  };
}

/**
 * Sends ClientInit (`shared`: let other clients stay connected) and reads the ServerInit, after `rfbConnect`. Same
 * contract: resolves with the socket paused right after the ServerInit; rejects after destroying it.
 */
export async function rfbServerInit(socket: Duplex, shared: boolean, limits: ReadLimits = {}): Promise<ServerInit> {
  const reader = new RfbReader('target');
  const feed = feedFromSocket(socket, reader);
  const unbound = bound(reader, limits);
  try {
    socket.write(Buffer.of(shared ? 1 : 0));
    const head = await reader.read(20);
    const name = await reader.string(MAX_NAME_BYTES, 'a desktop name');
    const width = head.readUInt16BE(0);
    const height = head.readUInt16BE(2);
    const pixelFormat = parsePixelFormat(head.subarray(4, 20));
    if (![8, 16, 32].includes(pixelFormat.bitsPerPixel)) throw reader.protocol(`ServerInit with ${pixelFormat.bitsPerPixel} bits per pixel`);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(name.length);
    return { width, height, pixelFormat, name: printable(name), raw: Buffer.concat([head, length, name]) };
  } catch (err) {
    socket.destroy();
    throw err instanceof RfbError ? err : (reader.failed ?? err);
  } finally {
    unbound();
    feed.detach();
  }
}
