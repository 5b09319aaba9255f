import { Duplex } from 'node:stream';
import type { PaceHandle } from '../../../lib/pace.ts';

/*
 * Telnet (RFC 854, 855) as a Duplex: reading it gives the host's data without the commands, writing it sends the
 * user's bytes escaped. The options (RFC 1143's Q method, simplified: a request of ours is remembered so that the
 * answer is not answered again, and an option is only answered when its state changes, so two sides never loop):
 *  - ours: TTYPE (RFC 1091, answers SEND with `xterm-256color`), NAWS (RFC 1073, the size at once and on every resize),
 *    SGA (RFC 858), BINARY (RFC 856);
 *  - the host's: ECHO (RFC 857: the host echoes), SGA, BINARY;
 *  - anything else is refused, and its subnegotiations are read and dropped (the buffer is bounded).
 * Line ends (RFC 854): a CR the user sends is CR NUL unless followed by LF, or CR alone once our side is BINARY (Enter
 * is CR; CR LF would be two line ends to a BINARY host); from a host that is not BINARY, CR NUL reads as CR.
 */

export const IAC = 255;
export const DONT = 254;
export const DO = 253;
export const WONT = 252;
export const WILL = 251;
export const SB = 250;
export const SE = 240;

export const OPT = { BINARY: 0, ECHO: 1, SGA: 3, TTYPE: 24, NAWS: 31 } as const;
const TTYPE_IS = 0;
const TTYPE_SEND = 1;

/** The terminal type told to the host: the browser's xterm. */
export const TERMINAL_TYPE = 'xterm-256color';
/** A subnegotiation longer than this is dropped as it comes (ours are a few bytes: TTYPE SEND). */
export const MAX_SUBNEGOTIATION = 512;

type Q = 'no' | 'yes' | 'wantyes' | 'wantno';

/** Options we enable on our side when asked (and offer at start), and those we let the host enable. */
const OURS = new Set<number>([OPT.BINARY, OPT.SGA, OPT.TTYPE, OPT.NAWS]);
const HIS = new Set<number>([OPT.BINARY, OPT.ECHO, OPT.SGA]);

enum S {
  Data,
  Iac,
  Verb,
  Sb,
  SbData,
  SbIac,
}

export interface TelnetOptions {
  cols: number;
  rows: number;
}

export class TelnetStream extends Duplex {
  private state = S.Data;
  private verb = 0;
  private sbOption = -1;
  private sb: number[] = [];
  private sbOverflow = false;
  private readonly us = new Map<number, Q>();
  private readonly him = new Map<number, Q>();
  private cols: number;
  private rows: number;
  /** The last data byte from the host was CR (a NUL after it is RFC 854's padding). */
  private hostCr = false;
  /** While set, the host's data goes here instead of to the reader (the login automation reads it first). */
  private intercept: ((data: Buffer) => void) | undefined;
  private socketHeld = false;
  /** The socket's pace handle (lib/pace.ts): the stream holds the socket through it while its reader is full. */
  private paced: PaceHandle | undefined;

  /** `socket`: the host's bytes (a TCP socket, a gateway's channel, a SOCKS socket). */
  constructor(
    private readonly socket: Duplex,
    options: TelnetOptions,
  ) {
    super({ allowHalfOpen: false });
    this.cols = options.cols;
    this.rows = options.rows;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('end', () => this.push(null));
    socket.on('close', () => this.destroy());
    socket.on('error', (err) => this.destroy(err));
  }

  /** Reads the socket through pace (call once, after the constructor: pace's listener comes after the stream's). */
  paceWith(handle: PaceHandle): void {
    this.paced = handle;
  }

  /** Offers our options and asks for the host's (once, at the start). */
  start(): void {
    for (const option of [OPT.BINARY, OPT.SGA, OPT.TTYPE, OPT.NAWS]) this.askUs(option);
    for (const option of [OPT.BINARY, OPT.SGA, OPT.ECHO]) this.askHim(option);
  }

  /** Our side's option is on. */
  ours(option: number): boolean {
    return this.us.get(option) === 'yes';
  }

  /** The host's option is on. */
  his(option: number): boolean {
    return this.him.get(option) === 'yes';
  }

  /** The terminal's new size: sent at once when NAWS is on, else when the host asks for it. */
  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
    if (this.ours(OPT.NAWS)) this.sendNaws();
  }

  /** Routes the host's data to `fn` (undefined: to the reader again). */
  setIntercept(fn: ((data: Buffer) => void) | undefined): void {
    this.intercept = fn;
  }

  /** Sends `data` to the host as the user's bytes (escaped, line ends per RFC 854), bypassing the writable side. */
  send(data: Buffer | string): boolean {
    if (this.socket.destroyed) return false;
    return this.socket.write(this.escape(typeof data === 'string' ? Buffer.from(data, 'utf8') : data));
  }

  /** Data for the reader (after the login automation: what it read and lets the user see). */
  deliver(data: Buffer): void {
    if (data.length > 0 && !this.push(data)) this.holdSocket();
  }

  override _read(): void {
    if (this.socketHeld) {
      this.socketHeld = false;
      if (this.paced) this.paced.release();
      else this.socket.resume();
    }
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.socket.destroyed || this.socket.write(this.escape(chunk))) callback();
    else this.socket.once('drain', () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.socket.end();
    callback();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.socket.destroy();
    callback(err);
  }

  private holdSocket(): void {
    if (this.socketHeld) return;
    this.socketHeld = true;
    if (this.paced) this.paced.hold();
    else this.socket.pause();
  }

  /** IAC doubled; CR followed by NUL unless LF follows or our side is BINARY. */
  private escape(data: Buffer): Buffer {
    const binary = this.ours(OPT.BINARY);
    let extra = 0;
    for (let i = 0; i < data.length; i++) {
      const b = data[i];
      if (b === IAC || (b === 13 && !binary && data[i + 1] !== 10)) extra++;
    }
    if (extra === 0) return data;
    const out = Buffer.allocUnsafe(data.length + extra);
    let o = 0;
    for (let i = 0; i < data.length; i++) {
      const b = data[i] as number;
      out[o++] = b;
      if (b === IAC) out[o++] = IAC;
      else if (b === 13 && !binary && data[i + 1] !== 10) out[o++] = 0;
    }
    return out;
  }

  private receive(chunk: Buffer): void {
    // Fast path: no command and no state carried over, and nothing to take out.
    if (this.state === S.Data && !this.hostCr && chunk.indexOf(IAC) < 0 && (this.his(OPT.BINARY) || chunk.indexOf(0) < 0)) {
      this.hostCr = chunk[chunk.length - 1] === 13;
      this.data(chunk);
      return;
    }
    const out: number[] = [];
    const binary = this.his(OPT.BINARY);
    for (const b of chunk) {
      switch (this.state) {
        case S.Data:
          if (b === IAC) this.state = S.Iac;
          else if (b === 0 && this.hostCr && !binary) this.hostCr = false;
          else {
            this.hostCr = b === 13;
            out.push(b);
          }
          break;
        case S.Iac:
          if (b === IAC) {
            this.hostCr = false;
            out.push(IAC);
            this.state = S.Data;
          } else if (b === WILL || b === WONT || b === DO || b === DONT) {
            this.verb = b;
            this.state = S.Verb;
          } else if (b === SB) {
            this.state = S.Sb;
          } else {
            // NOP, DM, BRK, IP, AO, AYT, EC, EL, GA, a stray SE: nothing to do for a terminal.
            this.state = S.Data;
          }
          break;
        case S.Verb:
          this.state = S.Data;
          this.negotiate(this.verb, b);
          break;
        case S.Sb:
          this.sbOption = b;
          this.sb = [];
          this.sbOverflow = false;
          this.state = S.SbData;
          break;
        case S.SbData:
          if (b === IAC) this.state = S.SbIac;
          else this.sbByte(b);
          break;
        case S.SbIac:
          if (b === SE) {
            this.state = S.Data;
            this.subnegotiation();
          } else if (b === IAC) {
            this.state = S.SbData;
            this.sbByte(IAC);
          } else {
            // IAC <other> inside a subnegotiation: malformed; end it there (RFC 855 leaves this to us).
            this.state = S.Data;
          }
          break;
      }
    }
    if (out.length > 0) this.data(Buffer.from(out));
  }

  private sbByte(b: number): void {
    if (this.sb.length < MAX_SUBNEGOTIATION) this.sb.push(b);
    else this.sbOverflow = true;
  }

  private data(data: Buffer): void {
    if (this.intercept) this.intercept(data);
    else this.deliver(data);
  }

  private subnegotiation(): void {
    const option = this.sbOption;
    const body = this.sb;
    this.sb = [];
    if (this.sbOverflow) return;
    if (option === OPT.TTYPE && this.ours(OPT.TTYPE) && body[0] === TTYPE_SEND) {
      this.command([IAC, SB, OPT.TTYPE, TTYPE_IS, ...Buffer.from(TERMINAL_TYPE, 'ascii'), IAC, SE]);
    }
    // Anything else (an option we refused, a format we do not read) is dropped.
  }

  private sendNaws(): void {
    const bytes = [this.cols >> 8, this.cols & 0xff, this.rows >> 8, this.rows & 0xff].flatMap((b) => (b === IAC ? [IAC, IAC] : [b]));
    this.command([IAC, SB, OPT.NAWS, ...bytes, IAC, SE]);
  }

  private command(bytes: number[]): void {
    if (!this.socket.destroyed) this.socket.write(Buffer.from(bytes));
  }

  /** Our side enabled an option: what it means at once. */
  private enabledUs(option: number): void {
    if (option === OPT.NAWS) this.sendNaws();
  }

  private askUs(option: number): void {
    const q = this.us.get(option) ?? 'no';
    if (q !== 'no') return;
    this.us.set(option, 'wantyes');
    this.command([IAC, WILL, option]);
  }

  private askHim(option: number): void {
    const q = this.him.get(option) ?? 'no';
    if (q !== 'no') return;
    this.him.set(option, 'wantyes');
    this.command([IAC, DO, option]);
  }

  private negotiate(verb: number, option: number): void {
    if (verb === WILL || verb === WONT) {
      const q = this.him.get(option) ?? 'no';
      if (verb === WILL) {
        if (q === 'no') {
          if (HIS.has(option)) {
            this.him.set(option, 'yes');
            this.command([IAC, DO, option]);
          } else this.command([IAC, DONT, option]);
        } else if (q === 'wantyes') this.him.set(option, 'yes');
        else if (q === 'wantno') this.him.set(option, 'no'); // answered our DONT with WILL: RFC 1143 error case
      } else if (q === 'yes') {
        this.him.set(option, 'no');
        this.command([IAC, DONT, option]);
      } else if (q !== 'no') this.him.set(option, 'no');
      return;
    }
    const q = this.us.get(option) ?? 'no';
    if (verb === DO) {
      if (q === 'no') {
        if (OURS.has(option)) {
          this.us.set(option, 'yes');
          this.command([IAC, WILL, option]);
          this.enabledUs(option);
        } else this.command([IAC, WONT, option]);
      } else if (q === 'wantyes') {
        this.us.set(option, 'yes');
        this.enabledUs(option);
      } else if (q === 'wantno') this.us.set(option, 'no');
    } else if (q === 'yes') {
      this.us.set(option, 'no');
      this.command([IAC, WONT, option]);
    } else if (q !== 'no') this.us.set(option, 'no');
  }
}
