import { deflateSync } from 'node:zlib';
import type { RawChannel } from '../../../plugins/desktop/components/channel';
import type { CreateViewer, DesktopViewer, ViewerEvents, ViewerOptions } from '../../../plugins/desktop/components/viewer';

/** A ServerInit: 4×2 screen, 32 bpp, named `name`. */
export function serverInit(width = 4, height = 2, name = 'desk'): Uint8Array {
  const nameBytes = new TextEncoder().encode(name);
  const out = new Uint8Array(24 + nameBytes.length);
  const view = new DataView(out.buffer);
  view.setUint16(0, width);
  view.setUint16(2, height);
  out.set([32, 24, 0, 1], 4);
  view.setUint16(8, 255);
  view.setUint16(10, 255);
  view.setUint16(12, 255);
  out.set([16, 8, 0], 14);
  view.setUint32(20, nameBytes.length);
  out.set(nameBytes, 24);
  return out;
}

export interface TestRecord {
  type: number;
  ms: number;
  data: Uint8Array;
}

/** A recording file as the contract writes it; `cut` bytes are taken off its end. */
export function recordingFile(records: TestRecord[], { width = 4, height = 2, cut = 0, header = {} as Record<string, unknown> } = {}): Uint8Array {
  const head = {
    version: 1,
    kind: 'rfb',
    width,
    height,
    name: 'desk',
    serverInit: Buffer.from(serverInit(width, height)).toString('base64'),
    started: '2026-11-28T10:00:00.000Z',
    ...header,
  };
  const parts: Uint8Array[] = [new TextEncoder().encode(`${JSON.stringify(head)}\n`)];
  for (const r of records) {
    const h = new Uint8Array(9);
    const v = new DataView(h.buffer);
    v.setUint8(0, r.type);
    v.setUint32(1, r.ms);
    v.setUint32(5, r.data.length);
    parts.push(h, r.data);
  }
  const all = Buffer.concat(parts);
  return new Uint8Array(all.subarray(0, all.length - cut));
}

/** A type-2 record's payload: the screen filled with `byte`. */
export function keyframeData(width: number, height: number, byte: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 4).fill(byte);
  const z = deflateSync(pixels);
  const out = new Uint8Array(4 + z.length);
  new DataView(out.buffer).setUint16(0, width);
  new DataView(out.buffer).setUint16(2, height);
  out.set(z, 4);
  return out;
}

/** What a fake viewer was asked to do, and the channel it was given. */
export interface FakeViewer extends DesktopViewer {
  channel: RawChannel;
  options: ViewerOptions;
  events: ViewerEvents;
  keys: [number, string, boolean][];
  pasted: string[];
  scales: string[];
  disconnected: boolean;
  /** Bytes noVNC would have read, in order. */
  received: Uint8Array[];
}

/**
 * A stand-in for noVNC's RFB (jsdom has no canvas): attaches to the channel as noVNC does (sets its handlers), records
 * what it receives, and fires `connect` when the channel opens (live) or when it has the ServerInit (player: `handshake`).
 */
export function fakeViewers({ handshake = false } = {}): { create: CreateViewer; all: FakeViewer[] } {
  const all: FakeViewer[] = [];
  const create: CreateViewer = (_target, channel, options, events) => {
    let step = 0;
    const viewer: FakeViewer = {
      channel,
      options,
      events,
      keys: [],
      pasted: [],
      scales: [],
      disconnected: false,
      received: [],
      sendKey: (keysym, code, down) => viewer.keys.push([keysym, code, down]),
      paste: (text) => viewer.pasted.push(text),
      setScale: (mode) => viewer.scales.push(mode),
      focus: () => undefined,
      disconnect: () => {
        viewer.disconnected = true;
        channel.close();
      },
    };
    channel.binaryType = 'arraybuffer';
    channel.onopen = () => {
      if (!handshake) events.connect?.();
    };
    channel.onmessage = ({ data }) => {
      const bytes = new Uint8Array(data);
      viewer.received.push(bytes);
      if (!handshake) return;
      // Plays noVNC's side of the handshake: version, pick None, ClientInit, then connected at the ServerInit.
      step += 1;
      if (step === 1) channel.send(new TextEncoder().encode('RFB 003.008\n'));
      else if (step === 2) channel.send(Uint8Array.of(1));
      else if (step === 3) channel.send(Uint8Array.of(1));
      else if (step === 4) events.connect?.();
    };
    channel.onclose = () => events.disconnect?.();
    all.push(viewer);
    return viewer;
  };
  return { create, all };
}
