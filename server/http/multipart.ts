import type { Readable } from 'node:stream';
import fastifyMultipart, { type Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, badRequest } from './envelope.ts';

/**
 * Bounds on a `multipart/form-data` body, parsed by @fastify/multipart (busboy, streaming). The body is not
 * buffered by Fastify, so its 1 MB body limit does not apply: these do. More fields or parts than any form of the
 * contract sends; text fields of more than 64 KiB together (a route's `maxFieldBytes` otherwise) are a 413, as soon
 * as the field that crosses the bound arrives (busboy would silently cut it) — so one request holds at most that much
 * text, whatever its number of fields (issue 28: 99 fields of 1 MiB each took 225 MB).
 */
export const MULTIPART_LIMITS = { parts: 100, fields: 100, fieldSize: 64 * 1024, fieldNameSize: 200, headerPairs: 20 } as const;

/** What a route that takes files accepts; without it, a file part is refused. */
export interface UploadLimits {
  maxFiles: number;
  maxFileBytes: number;
}

export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

/**
 * One file a route reads as a stream (`fileStream` on the route): the body is never buffered, the handler pipes the
 * part where it goes. Only the text fields before the file part become `req.body`.
 */
export interface FileStreamLimits {
  /** The form field of the file part; a file in another part is a 400. */
  field: string;
  /** Bytes the file may carry; past them the stream ends early with `truncated` set (and emits `limit`). */
  maxFileBytes: number;
}

export interface StreamedFile {
  field: string;
  filename: string;
  mimetype: string;
  /** The file's bytes as they arrive; `truncated` once it went over `maxFileBytes`. */
  file: Readable & { truncated?: boolean };
  /**
   * The handler takes the file (it will read it, maybe after answering: a progress stream). An untaken file is
   * discarded once the handler returns or throws, so a refused upload never leaves the request half read.
   */
  take(): void;
  /** Reads what follows the file part to the end of the body (extra files are discarded); a malformed rest rejects. */
  finish(): Promise<void>;
  /** Called by the route kit once the handler returned or threw: reads an untaken file to the end and drops it. */
  dropUnlessTaken(): void;
}

export interface MultipartBody {
  /** Text fields, plain key → value (the last one wins), like the urlencoded parser. */
  fields: Record<string, string>;
  files: UploadedFile[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set from a route's `upload` (http/routes.ts): its multipart body may carry files within these limits. */
    upload?: UploadLimits;
    /** Set from a route's `fileStream` (http/routes.ts): one file, handed over as a stream. */
    fileStream?: FileStreamLimits;
    /** Set from a route's `maxFieldBytes` (http/routes.ts): its form fields may be this large together (default 64 KiB). */
    maxFieldBytes?: number;
    /** Set from a route's `beforeBody` (http/routes.ts): runs after the token and gate, before the body is read. */
    beforeBody?: (req: FastifyRequest) => unknown;
  }
  interface FastifyRequest {
    /** Files of a multipart body, on routes that declare `upload`; [] otherwise. */
    uploads: UploadedFile[];
    /** The file part of a multipart body, on routes that declare `fileStream`; null otherwise or without one. */
    fileStream: StreamedFile | null;
  }
}

/**
 * Registers the parser, and turns every multipart body into its text fields as `req.body` before validation, so
 * routes see it like JSON (1.3.9's console posts the admin change-password as FormData). File parts are refused
 * (400) unless the route declares `upload: {maxFiles, maxFileBytes}`; its handler then finds them in `req.uploads`.
 */
export async function installMultipart(app: FastifyInstance): Promise<void> {
  await app.register(fastifyMultipart, { limits: { ...MULTIPART_LIMITS, files: 1, fileSize: 0 }, throwFileSizeLimit: true });
  // Set per request by the hook below (a shared array default would be shared between requests).
  app.decorateRequest('uploads', null as unknown as UploadedFile[]);
  app.decorateRequest('fileStream', null);
  app.addHook('preValidation', async (req) => {
    req.uploads = [];
    req.fileStream = null;
    if (!req.isMultipart()) return;
    // The route's own refusals that need no body (whose session it is) come before a byte of a form is read (other
    // bodies are parsed already, within the 1 MB body limit, and validated first as everywhere).
    await req.routeOptions.config.beforeBody?.(req);
    const streamed = req.routeOptions.config.fileStream;
    if (streamed) {
      const { fields, file } = await readUntilFile(req, streamed, req.routeOptions.config.maxFieldBytes);
      req.body = fields;
      req.fileStream = file;
      return;
    }
    const { fields, files } = await readMultipart(req, req.routeOptions.config.upload, req.routeOptions.config.maxFieldBytes);
    req.body = fields;
    req.uploads = files;
  });
}

/**
 * Reads a multipart body: text fields, and the files when `upload` allows them (buffered, each at most
 * `maxFileBytes`). Malformed or truncated bodies are a 400, bodies over the limits a 413, never a 500.
 */
export async function readMultipart(req: FastifyRequest, upload?: UploadLimits, fieldBytes: number = MULTIPART_LIMITS.fieldSize): Promise<MultipartBody> {
  const fields: [string, string][] = [];
  const files: UploadedFile[] = [];
  const text = textBudget(fieldBytes);
  try {
    // Without `upload`, one file part is let through busboy so it can be refused by name below.
    const limits = { files: upload ? upload.maxFiles : 1, fileSize: upload?.maxFileBytes ?? 0, fieldSize: fieldBytes };
    for await (const part of req.parts({ limits })) {
      if (part.type === 'file') {
        if (!upload) {
          part.file.resume();
          throw badRequest('body: file uploads are not accepted here');
        }
        files.push({ field: part.fieldname, filename: part.filename, mimetype: part.mimetype, data: await part.toBuffer() });
      } else {
        if (part.valueTruncated || part.fieldnameTruncated) throw fieldTooLarge(fieldBytes);
        fields.push([part.fieldname, text(String(part.value))]);
      }
    }
  } catch (err) {
    throw multipartError(err);
  }
  // Object.fromEntries defines own properties (the library refuses "__proto__" & co. anyway).
  return { fields: Object.fromEntries(fields), files };
}

/**
 * Reads the text fields of a multipart body up to its file part, and stops there: the file is handed over as a
 * stream (`req.fileStream`) for the handler to pipe. Malformed bodies and limits answer as in readMultipart.
 */
async function readUntilFile(
  req: FastifyRequest,
  limits: FileStreamLimits,
  fieldBytes: number = MULTIPART_LIMITS.fieldSize,
): Promise<{ fields: Record<string, string>; file: StreamedFile | null }> {
  const fields: [string, string][] = [];
  const text = textBudget(fieldBytes);
  const parts = req.parts({ limits: { files: 1, fileSize: limits.maxFileBytes, fieldSize: fieldBytes } })[Symbol.asyncIterator]();
  let file: StreamedFile | null = null;
  try {
    for (;;) {
      const next = await parts.next();
      if (next.done) break;
      const part: Multipart = next.value;
      if (part.type === 'file') {
        if (part.fieldname !== limits.field) {
          part.file.resume();
          throw badRequest(`body: the file goes in the form field "${limits.field}"`);
        }
        file = streamedFile(part.fieldname, part.filename, part.mimetype, part.file, parts);
        break;
      }
      if (part.valueTruncated || part.fieldnameTruncated) throw fieldTooLarge(fieldBytes);
      fields.push([part.fieldname, text(String(part.value))]);
    }
  } catch (err) {
    throw multipartError(err);
  }
  return { fields: Object.fromEntries(fields), file };
}

function streamedFile(field: string, filename: string, mimetype: string, file: StreamedFile['file'], rest: AsyncIterator<Multipart>): StreamedFile {
  let taken = false;
  const finish = async () => {
    try {
      for (;;) {
        const next = await rest.next();
        if (next.done) return;
        if (next.value.type === 'file') next.value.file.resume();
      }
    } catch (err) {
      throw multipartError(err);
    }
  };
  return {
    field,
    filename,
    mimetype,
    file,
    take: () => {
      taken = true;
    },
    finish,
    dropUnlessTaken: () => {
      if (taken) return;
      taken = true;
      file.resume();
      finish().catch(() => {}); // the answer is already decided; only the request's bytes are left to read
    },
  };
}

const fieldTooLarge = (bytes: number) => new ApiError(413, `body: a form field is larger than ${bytes / 1024} KiB`);
const fieldsTooLarge = (bytes: number) => new ApiError(413, `body: the form fields are larger than ${bytes / 1024} KiB together`);

/** Counts the text fields' bytes of one body against `bytes`: returns each value, throws the 413 once they go over. */
function textBudget(bytes: number): (value: string) => string {
  let used = 0;
  return (value) => {
    used += Buffer.byteLength(value);
    if (used > bytes) throw fieldsTooLarge(bytes);
    return value;
  };
}

const LIMIT_CODES = new Set(['FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT', 'FST_FILES_LIMIT', 'FST_REQ_FILE_TOO_LARGE']);

/** The library's and busboy's errors as envelope answers (also for a streamed file that broke off). */
export function multipartError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const { code, message } = err as { code?: string; message?: string };
  if (code && LIMIT_CODES.has(code)) return new ApiError(413, `body: more than the form allows (${MULTIPART_LIMITS.parts} parts, files only where a route takes them)`);
  if (code === 'FST_PROTO_VIOLATION') return badRequest('body: form field name not allowed');
  if (message && /boundary not found/i.test(message)) return badRequest('body: multipart/form-data without a boundary');
  // busboy: "Unexpected end of form", "Malformed part header", a premature close, …
  return badRequest('body: malformed multipart/form-data');
}
