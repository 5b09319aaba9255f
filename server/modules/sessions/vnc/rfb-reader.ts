import type { Duplex } from 'node:stream';
import { text } from '../../../lib/i18n.ts';

/*
 * The handshakes' reading: a bounded byte queue fed by a socket (the target) or a channel's messages (the browser),
 * read in exact sizes, failed at once by a deadline, an abort, the peer leaving or the peer sending more than a
 * handshake holds. Every failure is an RfbError: a fixed zh-CN sentence for the user (declared with `text`, so it is
 * said in English at the edges) and a detail for admins and the log (the server's own reason, what was malformed).
 * Nothing here ever holds or prints the password.
 */

export type RfbSide = 'target' | 'browser';

export type RfbErrorKind =
  /** VncAuth answered with a failure: the asset's password is wrong (the server's reason, if any, in `detail`). */
  | 'auth'
  /** The target asks for VncAuth and the asset has no password. */
  | 'password-required'
  /** None of the offered security types is one the bastion speaks (`offered` lists them). */
  | 'unsupported-security'
  /** The target refused the connection with a reason (too many attempts, connection limits…). */
  | 'refused'
  /** Bytes that break the protocol, or more than the handshake may hold. */
  | 'protocol'
  | 'timeout'
  /** The peer closed its side (or the socket failed) in the middle of the handshake. */
  | 'closed'
  /** Stopped from outside (the other side's handshake failed, the user left). */
  | 'aborted';

const SENTENCES: Record<RfbSide, Record<RfbErrorKind, string>> = {
  target: {
    auth: text('VNC 认证失败，请检查资产的密码', "VNC authentication failed; check the asset's password"),
    'password-required': text('VNC 服务器要求密码，但资产未设置密码', 'The VNC server asks for a password and the asset has none'),
    'unsupported-security': text('VNC 服务器未提供堡垒机支持的安全类型', 'The VNC server offers no security type the bastion supports'),
    refused: text('VNC 服务器拒绝了连接', 'The VNC server refused the connection'),
    protocol: text('VNC 服务器的协议数据无效', 'The VNC server sent invalid protocol data'),
    timeout: text('VNC 握手超时', 'The VNC handshake timed out'),
    closed: text('VNC 服务器在握手期间关闭了连接', 'The VNC server closed the connection during the handshake'),
    aborted: text('VNC 握手已取消', 'The VNC handshake was cancelled'),
  },
  browser: {
    auth: text('VNC 认证失败，请检查资产的密码', "VNC authentication failed; check the asset's password"),
    'password-required': text('VNC 服务器要求密码，但资产未设置密码', 'The VNC server asks for a password and the asset has none'),
    'unsupported-security': text('浏览器的 VNC 客户端不接受无认证方式', "The browser's VNC client does not accept the None security type"),
    refused: text('VNC 服务器拒绝了连接', 'The VNC server refused the connection'),
    protocol: text('浏览器的 VNC 客户端发送了无效的协议数据', "The browser's VNC client sent invalid protocol data"),
    timeout: text('VNC 握手超时', 'The VNC handshake timed out'),
    closed: text('浏览器在 VNC 握手期间断开了连接', 'The browser disconnected during the VNC handshake'),
    aborted: text('VNC 握手已取消', 'The VNC handshake was cancelled'),
  },
};

export class RfbError extends Error {
  constructor(
    readonly side: RfbSide,
    readonly kind: RfbErrorKind,
    /** For admins and the log: never the password, never bytes of the answer. */
    readonly detail = '',
    /** The security types the target offered (kind `unsupported-security`). */
    readonly offered: readonly number[] = [],
  ) {
    super(SENTENCES[side][kind]);
  }

  /** `<sentence>：<detail>`: what a session row keeps (admins read it; the user gets `message`). */
  get full(): string {
    return this.detail ? `${this.message}：${this.detail}` : this.message;
  }
}

/** A peer's text (a reason, a desktop name, a bad version line) made safe to print: no control characters, bounded. */
export function printable(bytes: Buffer, max = 200): string {
  const s = bytes.toString('utf8').replace(/\p{Cc}/gu, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** The most a handshake buffers from one peer beyond the read it waits for. */
export const HANDSHAKE_BUFFER_LIMIT = 64 * 1024;

export class RfbReader {
  private buffer = Buffer.alloc(0);
  private waiting: { n: number; resolve: (b: Buffer) => void; reject: (e: RfbError) => void } | undefined;
  private failure: RfbError | undefined;
  /** Told of the failure, once (a step that already returned still learns that its peer broke the rules or left). */
  onFail: ((error: RfbError) => void) | undefined;

  constructor(
    readonly side: RfbSide,
    private readonly limit = HANDSHAKE_BUFFER_LIMIT,
  ) {}

  get failed(): RfbError | undefined {
    return this.failure;
  }

  push(chunk: Buffer): void {
    if (this.failure) return;
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : Buffer.from(chunk);
    if (this.buffer.length > this.limit + (this.waiting?.n ?? 0)) {
      this.fail(new RfbError(this.side, 'protocol', `more than ${this.limit} bytes during the handshake`));
      return;
    }
    this.settle();
  }

  fail(error: RfbError): void {
    if (this.failure) return;
    this.failure = error;
    this.buffer = Buffer.alloc(0);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
    this.onFail?.(error);
  }

  /** Exactly `n` bytes (n ≤ the limit, checked by the callers against what the protocol allows). */
  read(n: number): Promise<Buffer> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.waiting) return Promise.reject(new Error('RfbReader: one read at a time'));
    return new Promise((resolve, reject) => {
      this.waiting = { n, resolve, reject };
      this.settle();
    });
  }

  async u8(): Promise<number> {
    return (await this.read(1)).readUInt8(0);
  }

  async u32(): Promise<number> {
    return (await this.read(4)).readUInt32BE(0);
  }

  /** A length-prefixed string (reason, desktop name): its length checked against `max` before any of it is awaited. */
  async string(max: number, what: string): Promise<Buffer> {
    const length = await this.u32();
    if (length > max) throw this.protocol(`${what} of ${length} bytes (at most ${max})`);
    return this.read(length);
  }

  protocol(detail: string): RfbError {
    const error = new RfbError(this.side, 'protocol', detail);
    this.fail(error);
    return error;
  }

  /** What was received beyond the handshake's reads; the reader is empty afterwards. */
  rest(): Buffer {
    const rest = this.buffer;
    this.buffer = Buffer.alloc(0);
    return rest;
  }

  private settle(): void {
    const waiting = this.waiting;
    if (!waiting || this.buffer.length < waiting.n) return;
    this.waiting = undefined;
    const out = this.buffer.subarray(0, waiting.n);
    this.buffer = this.buffer.subarray(waiting.n);
    waiting.resolve(out);
  }
}

export interface ReadLimits {
  /** The whole step's time (default HANDSHAKE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Ends the step from outside (kind `aborted`). */
  signal?: AbortSignal;
}

export const HANDSHAKE_TIMEOUT_MS = 10_000;

/** Fails the reader when the step's time is up or its signal aborts; returns what undoes that. */
export function bound(reader: RfbReader, { timeoutMs = HANDSHAKE_TIMEOUT_MS, signal }: ReadLimits): () => void {
  const timer = setTimeout(() => reader.fail(new RfbError(reader.side, 'timeout', `no answer within ${timeoutMs} ms`)), timeoutMs);
  const abort = () => reader.fail(new RfbError(reader.side, 'aborted'));
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort);
  return () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  };
}

/**
 * Feeds `reader` from a socket. `detach` stops that and gives the socket back paused, with whatever came after the
 * handshake's bytes put back at its front (`unshift`): the relay reads it as if the handshake had read exactly its own.
 */
export function feedFromSocket(socket: Duplex, reader: RfbReader): { detach(): void } {
  const onData = (chunk: Buffer) => reader.push(chunk);
  const onEnd = () => reader.fail(new RfbError(reader.side, 'closed'));
  const onError = (err: Error) => reader.fail(new RfbError(reader.side, 'closed', err.message));
  socket.on('data', onData);
  socket.on('end', onEnd);
  socket.on('close', onEnd);
  socket.on('error', onError);
  socket.resume(); // a socket paused by an earlier step does not flow again for a new 'data' listener alone
  // Already over: its 'end' and 'close' will not come again.
  if (socket.destroyed || socket.readableEnded) onEnd();
  return {
    detach() {
      socket.pause();
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.off('error', onError);
      const rest = reader.rest();
      if (rest.length && !socket.readableEnded) socket.unshift(rest);
    },
  };
}
