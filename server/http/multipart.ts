import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, badRequest } from './envelope.ts';

/**
 * Bounds on a `multipart/form-data` body, parsed by @fastify/multipart (busboy, streaming). The body is not
 * buffered by Fastify, so its 1 MB body limit does not apply: these do. More fields or parts than any form of the
 * contract sends; a text field larger than 64 KiB is a 413 (busboy would silently cut it).
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

export interface MultipartBody {
  /** Text fields, plain key → value (the last one wins), like the urlencoded parser. */
  fields: Record<string, string>;
  files: UploadedFile[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set from a route's `upload` (http/routes.ts): its multipart body may carry files within these limits. */
    upload?: UploadLimits;
  }
  interface FastifyRequest {
    /** Files of a multipart body, on routes that declare `upload`; [] otherwise. */
    uploads: UploadedFile[];
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
  app.addHook('preValidation', async (req) => {
    req.uploads = [];
    if (!req.isMultipart()) return;
    const { fields, files } = await readMultipart(req, req.routeOptions.config.upload);
    req.body = fields;
    req.uploads = files;
  });
}

/**
 * Reads a multipart body: text fields, and the files when `upload` allows them (buffered, each at most
 * `maxFileBytes`). Malformed or truncated bodies are a 400, bodies over the limits a 413, never a 500.
 */
export async function readMultipart(req: FastifyRequest, upload?: UploadLimits): Promise<MultipartBody> {
  const fields: [string, string][] = [];
  const files: UploadedFile[] = [];
  try {
    // Without `upload`, one file part is let through busboy so it can be refused by name below.
    const limits = { files: upload ? upload.maxFiles : 1, fileSize: upload?.maxFileBytes ?? 0 };
    for await (const part of req.parts({ limits })) {
      if (part.type === 'file') {
        if (!upload) {
          part.file.resume();
          throw badRequest('body: file uploads are not accepted here');
        }
        files.push({ field: part.fieldname, filename: part.filename, mimetype: part.mimetype, data: await part.toBuffer() });
      } else {
        if (part.valueTruncated || part.fieldnameTruncated) throw new ApiError(413, `body: a form field is larger than ${MULTIPART_LIMITS.fieldSize / 1024} KiB`);
        fields.push([part.fieldname, String(part.value)]);
      }
    }
  } catch (err) {
    throw multipartError(err);
  }
  // Object.fromEntries defines own properties (the library refuses "__proto__" & co. anyway).
  return { fields: Object.fromEntries(fields), files };
}

const LIMIT_CODES = new Set(['FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT', 'FST_FILES_LIMIT', 'FST_REQ_FILE_TOO_LARGE']);

/** The library's and busboy's errors as envelope answers. */
function multipartError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const { code, message } = err as { code?: string; message?: string };
  if (code && LIMIT_CODES.has(code)) return new ApiError(413, `body: more than the form allows (${MULTIPART_LIMITS.parts} parts, files only where a route takes them)`);
  if (code === 'FST_PROTO_VIOLATION') return badRequest('body: form field name not allowed');
  if (message && /boundary not found/i.test(message)) return badRequest('body: multipart/form-data without a boundary');
  // busboy: "Unexpected end of form", "Malformed part header", a premature close, …
  return badRequest('body: malformed multipart/form-data');
}
