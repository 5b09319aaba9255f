import { describe, expect, it } from 'vitest';
import { ClientStream, MAX_CUT_TEXT, RfbStreamError, ServerStream } from '../../../../server/modules/sessions/vnc/rfb-messages.ts';
import { Screen } from '../../../../server/modules/sessions/vnc/rfb-recording.ts';

/*
 * The RFB stream parsers on hand-made messages, fed a byte at a time: what they forward is what came (minus what the
 * rules drop), whole messages are cut where they end, and the recorder's screen is painted as the encodings say.
 */

const px = (v: number) => Buffer.of(v, v, v, 0);
const rect = (x: number, y: number, w: number, h: number, enc: number) => {
  const b = Buffer.alloc(12);
  b.writeUInt16BE(x, 0);
  b.writeUInt16BE(y, 2);
  b.writeUInt16BE(w, 4);
  b.writeUInt16BE(h, 6);
  b.writeInt32BE(enc, 8);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u16 = (n: number) => Buffer.of(n >> 8, n & 255);

function feedByBytes(push: (b: Buffer) => void, all: Buffer) {
  for (let i = 0; i < all.length; i++) push(all.subarray(i, i + 1));
}

describe('ServerStream', () => {
  it('parses Raw, RRE, Hextile and CopyRect into the screen and forwards the update unchanged, as one whole message', () => {
    const update = Buffer.concat([
      Buffer.of(0, 0),
      u16(4),
      // Raw 2x1 at (0,0): pixels 1, 2
      rect(0, 0, 2, 1, 0),
      px(1),
      px(2),
      // RRE 4x4 at (4,0): background 3, one subrect 1x1 at (1,1) colour 4
      rect(4, 0, 4, 4, 2),
      u32(1),
      px(3),
      px(4),
      u16(1),
      u16(1),
      u16(1),
      u16(1),
      // Hextile 16x16 at (0,16): bg 5 + fg 6 + one subrect (2,3) 2x1 in fg
      rect(0, 16, 16, 16, 5),
      Buffer.of(2 | 4 | 8),
      px(5),
      px(6),
      Buffer.of(1, (2 << 4) | 3, (1 << 4) | 0),
      // CopyRect 2x1 at (10,0) from (0,0)
      rect(10, 0, 2, 1, 1),
      u16(0),
      u16(0),
    ]);
    const screen = new Screen(32, 32, 4);
    const forwarded: Buffer[] = [];
    const messages: Buffer[] = [];
    const s = new ServerStream({ pixelBytes: 4, copy: true, forward: (b) => forwarded.push(b), message: (b) => messages.push(b), screen });
    feedByBytes((b) => s.push(b), update);
    expect(Buffer.concat(forwarded)).toEqual(update);
    expect(messages).toEqual([update]);
    const at = (x: number, y: number) => screen.pixels[(y * 32 + x) * 4];
    expect([at(0, 0), at(1, 0), at(10, 0), at(11, 0)]).toEqual([1, 2, 1, 2]);
    expect([at(4, 0), at(5, 1), at(7, 3)]).toEqual([3, 4, 3]);
    expect([at(0, 16), at(2, 19), at(3, 19), at(4, 19), at(15, 31)]).toEqual([5, 6, 6, 5, 5]);
  });

  it('drops a ServerCutText over the bound (or when copy is off) without buffering it, and goes on', () => {
    const big = Buffer.concat([Buffer.of(3, 0, 0, 0), u32(MAX_CUT_TEXT + 1), Buffer.alloc(MAX_CUT_TEXT + 1, 0x61)]);
    const forwarded: Buffer[] = [];
    const s = new ServerStream({ pixelBytes: 4, copy: true, forward: (b) => forwarded.push(b) });
    for (let i = 0; i < big.length; i += 4096) s.push(big.subarray(i, i + 4096));
    s.push(Buffer.of(2));
    expect(Buffer.concat(forwarded)).toEqual(Buffer.of(2));

    const off: Buffer[] = [];
    const t = new ServerStream({ pixelBytes: 4, copy: false, forward: (b) => off.push(b) });
    t.push(Buffer.concat([Buffer.of(3, 0, 0, 0), u32(2), Buffer.from('hi'), Buffer.of(2)]));
    expect(Buffer.concat(off)).toEqual(Buffer.of(2));
  });

  it('ends with an RfbStreamError on an unknown message or encoding', () => {
    const s = new ServerStream({ pixelBytes: 4, copy: true, forward: () => {} });
    expect(() => s.push(Buffer.of(77))).toThrow(RfbStreamError);
    const t = new ServerStream({ pixelBytes: 4, copy: true, forward: () => {} });
    expect(() => t.push(Buffer.concat([Buffer.of(0, 0), u16(1), rect(0, 0, 1, 1, 7)]))).toThrow(RfbStreamError);
  });
});

describe('ClientStream', () => {
  it('drops a ClientCutText over the bound in pieces, then passes the next key', () => {
    const out: Buffer[] = [];
    const c = new ClientStream({ paste: true, forward: (b) => out.push(b) });
    const big = Buffer.concat([Buffer.of(6, 0, 0, 0), u32(MAX_CUT_TEXT + 10), Buffer.alloc(MAX_CUT_TEXT + 10, 0x62)]);
    for (let i = 0; i < big.length; i += 8192) c.push(big.subarray(i, i + 8192));
    const key = Buffer.concat([Buffer.of(4, 1, 0, 0), u32(0x61)]);
    c.push(key);
    expect(out).toEqual([key]);
  });

  it('a watcher passes only pixel format, encodings (rewritten) and update requests', () => {
    const out: Buffer[] = [];
    const c = new ClientStream({ paste: true, watchOnly: true, forward: (b) => out.push(b) });
    const request = Buffer.of(3, 0, 0, 0, 0, 0, 0, 10, 0, 10);
    c.push(Buffer.concat([Buffer.of(4, 1, 0, 0), u32(0x61), Buffer.of(5, 1, 0, 1, 0, 1), Buffer.of(2, 0), u16(2), u32(16), u32(5), request]));
    expect(out).toEqual([Buffer.concat([Buffer.of(2, 0), u16(1), u32(5)]), request]);
  });
});
