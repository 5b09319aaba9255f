/**
 * The desktop recording format (`recording.rfb`, docs/SERVER.md): one JSON header line, then binary records
 * `[u8 type][u32 BE ms since start][u32 BE length][length bytes]` until the end of the file. Pure: no DOM, no noVNC.
 */

/** What a record holds. Other types are skipped (a newer recorder may add some). */
export const RECORD = {
  /** Server → browser RFB bytes, whole messages only. */
  rfb: 0,
  /** The 16-byte PIXEL_FORMAT in effect from now on (noVNC always asks for its own: the player does not need it). */
  pixelFormat: 1,
  /** `[u16 BE width][u16 BE height][zlib of width*height*4 bytes]`: the whole screen at that moment. */
  keyframe: 2,
} as const;

export interface RecordingHeader {
  version: number;
  kind: string;
  width: number;
  height: number;
  name: string;
  /** Base64 of the ServerInit message exactly as the browser got it. */
  serverInit: string;
  started: string;
}

export interface RecordEntry {
  type: number;
  /** Milliseconds since the start of the session. */
  ms: number;
  data: Uint8Array;
}

export interface Recording {
  header: RecordingHeader;
  serverInit: Uint8Array;
  /** The records the player knows (types 0, 1, 2), in file order. */
  records: RecordEntry[];
  /** Records of unknown types passed over. */
  skipped: number;
  /** The file ends inside a record (the server stopped mid-write): that record is left out. */
  truncated: boolean;
  /** The time of the last record (0 for none). */
  durationMs: number;
}

/** A file that is not a desktop recording at all (no header, another kind, a header without its ServerInit). */
export class RecordingFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordingFormatError';
  }
}

const RECORD_HEAD = 9;
const KNOWN_TYPES: ReadonlySet<number> = new Set(Object.values(RECORD));

export function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function parseHeader(line: Uint8Array): RecordingHeader {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(line));
  } catch {
    throw new RecordingFormatError('the header line is not JSON');
  }
  const h = value as Partial<RecordingHeader> | null;
  if (!h || typeof h !== 'object' || h.kind !== 'rfb') throw new RecordingFormatError('not a desktop recording (kind is not "rfb")');
  if (h.version !== 1) throw new RecordingFormatError(`unknown recording version ${String(h.version)}`);
  if (typeof h.serverInit !== 'string' || h.serverInit === '') throw new RecordingFormatError('the header has no ServerInit');
  if (!Number.isInteger(h.width) || !Number.isInteger(h.height)) throw new RecordingFormatError('the header has no screen size');
  return {
    version: 1,
    kind: 'rfb',
    width: h.width as number,
    height: h.height as number,
    name: typeof h.name === 'string' ? h.name : '',
    serverInit: h.serverInit,
    started: typeof h.started === 'string' ? h.started : '',
  };
}

/** Reads a whole recording. Throws {@link RecordingFormatError} when it is not one; a cut-off last record is dropped. */
export function parseRecording(file: ArrayBuffer | Uint8Array): Recording {
  const bytes = file instanceof Uint8Array ? file : new Uint8Array(file);
  const eol = bytes.indexOf(0x0a);
  if (eol < 0) throw new RecordingFormatError('no header line');
  const header = parseHeader(bytes.subarray(0, eol));
  let serverInit: Uint8Array;
  try {
    serverInit = decodeBase64(header.serverInit);
  } catch {
    throw new RecordingFormatError('the ServerInit is not base64');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: RecordEntry[] = [];
  let skipped = 0;
  let truncated = false;
  let at = eol + 1;
  while (at < bytes.length) {
    if (bytes.length - at < RECORD_HEAD) {
      truncated = true;
      break;
    }
    const type = view.getUint8(at);
    const ms = view.getUint32(at + 1);
    const length = view.getUint32(at + 5);
    const start = at + RECORD_HEAD;
    if (bytes.length - start < length) {
      truncated = true;
      break;
    }
    if (KNOWN_TYPES.has(type)) records.push({ type, ms, data: bytes.subarray(start, start + length) });
    else skipped += 1;
    at = start + length;
  }
  return { header, serverInit, records, skipped, truncated, durationMs: records.at(-1)?.ms ?? 0 };
}

export interface Keyframe {
  width: number;
  height: number;
  /** zlib (RFC 1950) of width*height*4 bytes. */
  compressed: Uint8Array;
}

/** The parts of a type-2 record (null when it is too short to hold its size). */
export function readKeyframe(data: Uint8Array): Keyframe | null {
  if (data.length < 4) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { width: view.getUint16(0), height: view.getUint16(2), compressed: data.subarray(4) };
}

/** Inflates a keyframe's pixels with the browser's own zlib (`DecompressionStream('deflate')` is RFC 1950). */
export async function inflate(compressed: Uint8Array): Promise<Uint8Array> {
  const stream = new DecompressionStream('deflate');
  const writer = stream.writable.getWriter();
  // Errors surface on the reading side (a corrupt keyframe rejects the read).
  writer.write(new Uint8Array(compressed)).catch(() => undefined);
  writer.close().catch(() => undefined);
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** RFB encodings the player writes itself. */
const ENCODING_RAW = 0;
const ENCODING_DESKTOP_SIZE = -223;

/**
 * A FramebufferUpdate that puts a keyframe on the screen: a DesktopSize rectangle (the screen may have been resized
 * since the viewer's last update) then one Raw rectangle of the whole screen. `pixels` must hold width*height*4 bytes.
 */
export function keyframeUpdate(width: number, height: number, pixels: Uint8Array): Uint8Array {
  const size = width * height * 4;
  if (pixels.length !== size) throw new RecordingFormatError(`a keyframe of ${width}×${height} holds ${pixels.length} bytes, not ${size}`);
  const out = new Uint8Array(4 + 12 + 12 + size);
  const view = new DataView(out.buffer);
  view.setUint8(0, 0); // FramebufferUpdate
  view.setUint16(2, 2); // two rectangles
  const rect = (at: number, encoding: number) => {
    view.setUint16(at, 0);
    view.setUint16(at + 2, 0);
    view.setUint16(at + 4, width);
    view.setUint16(at + 6, height);
    view.setInt32(at + 8, encoding);
  };
  rect(4, ENCODING_DESKTOP_SIZE);
  rect(16, ENCODING_RAW);
  out.set(pixels, 28);
  return out;
}
