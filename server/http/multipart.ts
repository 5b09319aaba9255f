import { badRequest } from './envelope.ts';

/** More parts than any form of the contract sends; bounds the work a hostile body can cause. */
const MAX_PARTS = 100;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The `boundary` parameter of a multipart Content-Type (RFC 2046: 1–70 characters, maybe quoted). */
export function boundaryOf(contentType: string): string | undefined {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : undefined;
}

/**
 * Text fields of a `multipart/form-data` body (1.3.9's admin change-password posts FormData) → plain key → value,
 * like the urlencoded parser. File parts are refused: no route takes uploads yet, and a later one will need a
 * streaming parser with its own limits, not a buffered body. Malformed input is a 400.
 */
export function parseMultipartFields(body: Buffer, contentType: string): Record<string, string> {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw badRequest('body: multipart/form-data without a boundary');
  const delimiter = Buffer.from(`--${boundary}`);
  const next = Buffer.from(`\r\n--${boundary}`);
  const malformed = () => badRequest('body: malformed multipart/form-data');

  let pos = body.indexOf(delimiter);
  if (pos < 0) throw malformed();
  pos += delimiter.length;
  const fields: [string, string][] = [];
  for (;;) {
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) break; // "--": the closing delimiter
    if (body.compare(CRLF, 0, 2, pos, pos + 2) !== 0) throw malformed();
    if (fields.length >= MAX_PARTS) throw badRequest(`body: more than ${MAX_PARTS} form parts`);
    const headStart = pos + 2;
    const headEnd = body.indexOf(HEADER_END, headStart);
    if (headEnd < 0) throw malformed();
    const end = body.indexOf(next, headEnd + 4);
    if (end < 0) throw malformed();
    fields.push([fieldName(body.toString('utf8', headStart, headEnd), malformed), body.toString('utf8', headEnd + 4, end)]);
    pos = end + next.length;
  }
  // Object.fromEntries defines own properties, so a "__proto__" field is just a key.
  return Object.fromEntries(fields);
}

function fieldName(headers: string, malformed: () => Error): string {
  const disposition = headers.split('\r\n').find((line) => /^content-disposition:/i.test(line));
  if (!disposition || !/:\s*form-data\s*(;|$)/i.test(disposition)) throw malformed();
  if (/;\s*filename\*?=/i.test(disposition)) throw badRequest('body: file uploads are not accepted here');
  const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
  if (name === undefined) throw malformed();
  return name;
}
