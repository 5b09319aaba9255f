import { describe, expect, it } from 'vitest';
import { inflate, keyframeUpdate, parseRecording, RECORD, RecordingFormatError, readKeyframe } from '../../../plugins/desktop/components/recording';
import { indexAfter, lastKeyframe, planSeek } from '../../../plugins/desktop/components/seek';
import { keyframeData, recordingFile, serverInit } from './fixtures';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('desktop recording format', () => {
  it('reads the header, its ServerInit and the records in order', () => {
    const file = recordingFile([
      { type: 0, ms: 0, data: bytes(0, 0, 0, 0) },
      { type: 1, ms: 5, data: new Uint8Array(16) },
      { type: 0, ms: 1200, data: bytes(2) },
    ]);
    const r = parseRecording(file.buffer as ArrayBuffer);
    expect(r.header).toMatchObject({ version: 1, kind: 'rfb', width: 4, height: 2, name: 'desk', started: '2026-11-28T10:00:00.000Z' });
    expect(Array.from(r.serverInit)).toEqual(Array.from(serverInit()));
    expect(r.records.map((x) => [x.type, x.ms, Array.from(x.data)])).toEqual([
      [0, 0, [0, 0, 0, 0]],
      [1, 5, Array(16).fill(0)],
      [0, 1200, [2]],
    ]);
    expect(r.truncated).toBe(false);
    expect(r.durationMs).toBe(1200);
  });

  it('drops a last record cut off in its head or in its body, and says so', () => {
    const records = [
      { type: 0, ms: 10, data: bytes(1, 2, 3) },
      { type: 0, ms: 20, data: bytes(4, 5, 6, 7) },
    ];
    for (const cut of [1, 4, 6, 12]) {
      const r = parseRecording(recordingFile(records, { cut }));
      expect(r.truncated).toBe(true);
      expect(r.records.map((x) => x.ms)).toEqual([10]);
    }
    expect(parseRecording(recordingFile(records)).truncated).toBe(false);
  });

  it('skips records of unknown types by their length', () => {
    const r = parseRecording(recordingFile([
      { type: 0, ms: 1, data: bytes(9) },
      { type: 7, ms: 2, data: bytes(1, 2, 3, 4, 5) },
      { type: 0, ms: 3, data: bytes(8) },
    ]));
    expect(r.records.map((x) => [x.type, x.ms, Array.from(x.data)])).toEqual([
      [0, 1, [9]],
      [0, 3, [8]],
    ]);
    expect(r.skipped).toBe(1);
  });

  it('refuses what is not a desktop recording', () => {
    const text = (s: string) => new TextEncoder().encode(s);
    expect(() => parseRecording(text('{"version":2,"width":80,"height":24}\n[0.1,"o","x"]\n'))).toThrow(RecordingFormatError);
    expect(() => parseRecording(text('no newline at all'))).toThrow(RecordingFormatError);
    expect(() => parseRecording(recordingFile([], { header: { serverInit: '' } }))).toThrow(/ServerInit/);
    expect(() => parseRecording(recordingFile([], { header: { version: 2 } }))).toThrow(/version/);
  });

  it('inflates a keyframe (zlib) into a FramebufferUpdate: DesktopSize, then one Raw rectangle of the whole screen', async () => {
    const frame = readKeyframe(keyframeData(3, 2, 0x7f));
    expect(frame).toMatchObject({ width: 3, height: 2 });
    const pixels = await inflate((frame as NonNullable<typeof frame>).compressed);
    expect(pixels.length).toBe(3 * 2 * 4);
    const update = keyframeUpdate(3, 2, pixels);
    const view = new DataView(update.buffer);
    expect([view.getUint8(0), view.getUint16(2)]).toEqual([0, 2]);
    expect([view.getUint16(4), view.getUint16(6), view.getUint16(8), view.getUint16(10), view.getInt32(12)]).toEqual([0, 0, 3, 2, -223]);
    expect([view.getUint16(16), view.getUint16(18), view.getUint16(20), view.getUint16(22), view.getInt32(24)]).toEqual([0, 0, 3, 2, 0]);
    expect(update.length).toBe(28 + 24);
    expect(update.subarray(28).every((b) => b === 0x7f)).toBe(true);
    expect(() => keyframeUpdate(3, 3, pixels)).toThrow(RecordingFormatError);
    expect(readKeyframe(bytes(1, 2))).toBeNull();
  });
});

describe('desktop seek', () => {
  const K = RECORD.keyframe;
  const D = RECORD.rfb;
  const records = [
    { type: D, ms: 0 },
    { type: D, ms: 100 },
    { type: K, ms: 30_000 },
    { type: D, ms: 30_500 },
    { type: D, ms: 45_000 },
    { type: K, ms: 60_000 },
    { type: D, ms: 61_000 },
  ];

  it('finds the records up to a time and the last keyframe before them', () => {
    expect(indexAfter(records, -1)).toBe(0);
    expect(indexAfter(records, 100)).toBe(2);
    expect(indexAfter(records, 59_999)).toBe(5);
    expect(indexAfter(records, 99_999)).toBe(7);
    expect(lastKeyframe(records, 2)).toBe(-1);
    expect(lastKeyframe(records, 3)).toBe(2);
    expect(lastKeyframe(records, 7)).toBe(5);
  });

  it('seeks by the last keyframe at or before the target, then the records after it', () => {
    expect(planSeek(records, 0, 50_000)).toEqual({ restart: false, keyframe: 2, from: 3, to: 5 });
    expect(planSeek(records, 0, 60_000)).toEqual({ restart: false, keyframe: 5, from: 6, to: 6 });
    // Going back to a time after a keyframe: that keyframe, no restart.
    expect(planSeek(records, 7, 31_000)).toEqual({ restart: false, keyframe: 2, from: 3, to: 4 });
  });

  it('goes forward from where it is when no keyframe lies in between', () => {
    expect(planSeek(records, 3, 50_000)).toEqual({ restart: false, keyframe: null, from: 3, to: 5 });
    expect(planSeek(records, 0, 100)).toEqual({ restart: false, keyframe: null, from: 0, to: 2 });
  });

  it('restarts from the beginning when going back before the first keyframe', () => {
    expect(planSeek(records, 5, 50)).toEqual({ restart: true, keyframe: null, from: 0, to: 1 });
    const none = [
      { type: D, ms: 0 },
      { type: D, ms: 10 },
      { type: D, ms: 20 },
    ];
    expect(planSeek(none, 3, 10)).toEqual({ restart: true, keyframe: null, from: 0, to: 2 });
  });
});
