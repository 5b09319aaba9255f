import { describe, expect, it } from 'vitest';
import { ServerStream } from '../../../../server/modules/sessions/vnc/rfb-messages.ts';

/*
 * A Raw rectangle parsed with no screen to paint (a watcher's stream, a session whose recording could not start):
 * its pixels must still be read, or the next bytes are taken for a message (found by the RDP relay's monitor test).
 */

describe('ServerStream without a screen', () => {
  it('forwards Raw rectangles whole and stays on message boundaries', () => {
    const rect = (w: number, h: number, fill: number) => {
      const head = Buffer.alloc(12);
      head.writeUInt16BE(w, 4);
      head.writeUInt16BE(h, 6);
      return Buffer.concat([head, Buffer.alloc(w * h * 4, fill)]);
    };
    const update = Buffer.concat([Buffer.of(0, 0, 0, 2), rect(8, 4, 0xff), rect(3, 2, 0x11)]);
    const stream = Buffer.concat([update, Buffer.of(2), update]); // then a Bell, then the same update
    const out: Buffer[] = [];
    const s = new ServerStream({ pixelBytes: 4, copy: false, forward: (b) => out.push(b) });
    for (let at = 0; at < stream.length; at += 7) s.push(stream.subarray(at, at + 7));
    expect(Buffer.concat(out)).toEqual(stream);
  });
});
