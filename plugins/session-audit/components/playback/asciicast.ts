// asciicast v2 (https://docs.asciinema.org/manual/asciicast/v2/): a JSON header line, then one JSON array per line,
// `[seconds, code, data]`. Recordings come from running sessions (a crash may cut the last line) and from 1.3.9
// (`Timestamp` instead of `timestamp`), so the parser takes what it can and counts what it skipped.

export interface CastHeader {
  width: number;
  height: number;
  /** Unix seconds of the start, when the header has one. */
  timestamp?: number;
}

/** An event the player uses: output (`o`) or a terminal resize (`r`, data `COLSxROWS`). */
export interface CastEvent {
  /** Seconds from the start, never decreasing. */
  time: number;
  type: 'o' | 'r';
  data: string;
}

export interface Cast {
  header: CastHeader;
  events: CastEvent[];
  /** Lines that were not a usable event (bad JSON, wrong shape); other event types (`i`, `m`) are not counted. */
  skipped: number;
  /** Seconds of the last event. */
  duration: number;
}

const DEFAULT_SIZE = { width: 80, height: 24 };

const positiveInt = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 10_000 ? value : undefined;

/** `COLSxROWS` of an `r` event, or undefined. */
export function parseSize(data: string): { cols: number; rows: number } | undefined {
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(data.trim());
  if (!match) return undefined;
  const cols = Number(match[1]);
  const rows = Number(match[2]);
  return cols > 0 && rows > 0 ? { cols, rows } : undefined;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function headerOf(value: unknown): CastHeader | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const h = value as Record<string, unknown>;
  if (h.version !== 2) return undefined;
  const stamp = h.timestamp ?? h.Timestamp;
  return {
    width: positiveInt(h.width) ?? DEFAULT_SIZE.width,
    height: positiveInt(h.height) ?? DEFAULT_SIZE.height,
    ...(typeof stamp === 'number' && Number.isFinite(stamp) ? { timestamp: stamp } : {}),
  };
}

/** Parses a recording; never throws. Without a usable header the size defaults to 80×24 and the line counts as skipped. */
export function parseCast(text: string): Cast {
  const lines = text.split('\n');
  let header: CastHeader | undefined;
  let skipped = 0;
  let last = 0;
  const events: CastEvent[] = [];
  let first = true;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    const value = parseLine(line);
    if (first) {
      first = false;
      header = headerOf(value);
      if (header) continue;
      skipped += 1;
      if (!Array.isArray(value)) continue; // a broken header: the events may still be fine
    }
    if (!Array.isArray(value) || value.length < 3) {
      skipped += 1;
      continue;
    }
    const [time, type, data] = value as unknown[];
    if (typeof time !== 'number' || !Number.isFinite(time) || time < 0 || typeof type !== 'string' || typeof data !== 'string') {
      skipped += 1;
      continue;
    }
    if (type !== 'o' && type !== 'r') continue; // input and markers: not shown
    if (type === 'r' && !parseSize(data)) {
      skipped += 1;
      continue;
    }
    // Out-of-order times (a clock step while recording) are held at the previous one, so time never runs back.
    last = Math.max(last, time);
    events.push({ time: last, type, data });
  }
  return { header: header ?? { ...DEFAULT_SIZE }, events, skipped, duration: last };
}
