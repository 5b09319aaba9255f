import type { Duplex } from 'node:stream';
import { bound, feedFromSocket, printable, type ReadLimits, RfbError, RfbReader } from './rfb-reader.ts';
import { VNC_CHALLENGE_BYTES, vncAuthResponse } from './vnc-auth.ts';

/*
 * The RFB client handshake the bastion runs against a VNC target (RFC 6143 §7.1–7.3), on the socket `reach()` gives:
 * the version (the bastion answers 3.8 to 3.8 and later, 3.7 to 3.7, 3.3 to anything older), the security type —
 * None (1) or VNC Authentication (2) with the asset's password — and the SecurityResult. `rfbConnect` stops right
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
  securityType: typeof SECURITY_NONE | typeof SECURITY_VNC_AUTH;
}

/**
 * Runs the client handshake up to ClientInit. Resolves with the socket paused and nothing of it read beyond the
 * handshake; rejects with an RfbError after destroying the socket (a half-done handshake is of no further use).
 */
export async function rfbConnect(socket: Duplex, options: RfbConnectOptions = {}): Promise<RfbConnected> {
  const reader = new RfbReader('target');
  const feed = feedFromSocket(socket, reader);
  const unbound = bound(reader, options);
  try {
    return await clientHandshake(socket, reader, options.password ?? '');
  } catch (err) {
    socket.destroy();
    throw err instanceof RfbError ? err : (reader.failed ?? err);
  } finally {
    unbound();
    feed.detach();
  }
}

async function clientHandshake(socket: Duplex, r: RfbReader, password: string): Promise<RfbConnected> {
  const line = await r.read(12);
  const offered = parseVersion(line);
  if (!offered || offered.major < 3) throw r.protocol(`not an RFB version line: "${printable(line)}"`);
  const version: RfbVersion = offered.major > 3 || offered.minor >= 8 ? '3.8' : offered.minor === 7 ? '3.7' : '3.3';
  socket.write(versionLine(version));

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
    if (types.includes(SECURITY_NONE)) type = SECURITY_NONE;
    else if (types.includes(SECURITY_VNC_AUTH)) type = SECURITY_VNC_AUTH;
    else throw new RfbError('target', 'unsupported-security', `offered: ${securityList(types)}`, types);
    if (type === SECURITY_VNC_AUTH && !password) throw new RfbError('target', 'password-required');
    socket.write(Buffer.of(type));
  }

  if (type === SECURITY_VNC_AUTH) {
    if (!password) throw new RfbError('target', 'password-required');
    const challenge = await r.read(VNC_CHALLENGE_BYTES);
    socket.write(vncAuthResponse(challenge, password));
  }

  // SecurityResult: always in 3.8, only after VncAuth before it.
  if (type === SECURITY_VNC_AUTH || version === '3.8') {
    const status = await r.u32();
    if (status !== 0) {
      const kind = type === SECURITY_VNC_AUTH ? 'auth' : 'refused';
      // 3.8 gives a reason; some servers close without it, which is the same failure.
      const reason = version === '3.8' ? await reasonOrNothing(r) : '';
      throw new RfbError('target', kind, reason ? `the server said: ${reason}` : `SecurityResult ${status}`);
    }
  }
  return { version, serverVersion: line.toString('latin1').trim(), securityType: type as RfbConnected['securityType'] }; // checked above: None or VncAuth
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
