import fs from 'node:fs';
import { fail } from '../../http/envelope.ts';
import { route } from '../../http/routes.ts';
import type { SessionDeps } from './deps.ts';
import { oneId } from '../../http/ids.ts';
import { recordingOf, sessionOrFail } from './shared.ts';
import { text } from '../../lib/i18n.ts';

/*
 * A session's recording downloaded for playback (contract §5.6): the file in `<recordingDir>/<id>/` (named by its relay), asciicast v2,
 * written by the relay while the session runs (shared.ts says where).
 */

export const MSG_RECORDING = {
  none: text('该会话没有录像', 'This session has no recording'),
  /** The file exists but holds nothing, not even its header (a disk that failed as it started, a crash). */
  empty: text('该会话的录像为空，无法回放', 'This session’s recording is empty and cannot be played'),
};

export type ByteRange = { start: number; end: number } | 'unsatisfiable' | null;

/**
 * One `Range: bytes=…` against a file of `size` bytes (RFC 9110 §14): `a-b`, `a-` or the suffix `-n`; the end is
 * clamped to the file. null = serve the whole file (no header, another unit, a malformed header, several ranges:
 * a server may ignore Range); 'unsatisfiable' = a well-formed range that starts past the end (416).
 */
export function parseRange(header: string | undefined, size: number): ByteRange {
  if (!header) return null;
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? Number.POSITIVE_INFINITY : Number(m[2]);
  if (end < start) return null; // syntactically invalid: ignored
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

export function recordingRoutes({ db, config }: SessionDeps) {
  return [
    route({
      method: 'GET',
      path: '/sessions/:id/recording',
      allow: 'granted',
      params: oneId,
      handler: async ({ params, req, reply }) => {
        const session = await sessionOrFail(db, params.id);
        const file = await recordingOf(config, session.id);
        // Open first, then stat the open file: what is sent is what was measured, even while the relay appends.
        const fd = file ? await fs.promises.open(file, 'r').catch(() => null) : null;
        if (!fd) throw fail(MSG_RECORDING.none);
        let size: number;
        try {
          const st = await fd.stat();
          if (!st.isFile()) throw fail(MSG_RECORDING.none);
          if (st.size === 0) throw fail(MSG_RECORDING.empty);
          size = st.size;
        } catch (err) {
          await fd.close();
          throw err;
        }
        await db.updateTable('sessions').set({ reviewed: 1 }).where('id', '=', session.id).execute();

        const range = parseRange(req.headers.range, size);
        reply.header('accept-ranges', 'bytes').header('cache-control', 'no-store').header('content-type', 'application/x-asciicast');
        if (range === 'unsatisfiable') {
          await fd.close();
          // Not an envelope: a byte-range answer is HTTP's own (the player asked for bytes, not JSON).
          return reply.code(416).header('content-range', `bytes */${size}`).header('content-type', 'text/plain; charset=utf-8').send('Range Not Satisfiable');
        }
        const { start, end } = range ?? { start: 0, end: size - 1 };
        if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
        reply.header('content-length', String(Math.max(0, end - start + 1)));
        // Streamed from the open descriptor (closed by the stream), never read whole into memory.
        return reply.send(fd.createReadStream({ start, end }));
      },
    }),
  ];
}
