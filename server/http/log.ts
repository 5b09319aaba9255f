import type { FastifyServerOptions } from 'fastify';

/*
 * Downloads and WebSockets carry the login token in the URL (`?X-Auth-Token=…`, contract §1.3); the database keeps
 * only its hash, so the log must not keep it either. Every logger the app builds goes through `safeLogger`.
 */

const TOKEN = 'x-auth-token';
const REDACTED = 'REDACTED';

/** A request URL (path and query) with any X-Auth-Token query parameter's value replaced. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = new URLSearchParams(url.slice(at + 1));
  let found = false;
  for (const name of new Set(query.keys())) {
    if (name.toLowerCase() !== TOKEN) continue;
    query.set(name, REDACTED);
    found = true;
  }
  return found ? `${url.slice(0, at)}?${query.toString()}` : url;
}

/** Free text (a message or an error's stack may quote a URL): every `X-Auth-Token=<value>` loses its value. */
export const redactText = (text: string) => text.replace(/(x-auth-token=)[^&\s"'`)\\]*/gi, `$1${REDACTED}`);

interface LineStream {
  write(line: string): unknown;
}

/**
 * The app's logger options with the token kept out: the URL fields (`url`, `req`) are serialized without it, the
 * header is redacted, and each finished line is cleaned once more for text that quotes a URL (errors, warnings).
 */
export function safeLogger(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base: Exclude<FastifyServerOptions['logger'], boolean | undefined> = logger === true ? {} : logger;
  const out: LineStream = (base.stream as LineStream | undefined) ?? process.stdout;
  return {
    ...base,
    serializers: {
      ...base.serializers,
      url: (v: unknown) => (typeof v === 'string' ? redactUrl(v) : v),
      req: (req: { method?: string; url?: string }) => ({ method: req.method, url: typeof req.url === 'string' ? redactUrl(req.url) : req.url }),
    },
    redact: { paths: ['req.headers["x-auth-token"]', 'headers["x-auth-token"]'], censor: REDACTED },
    stream: { write: (line: string) => out.write(redactText(line)) },
  };
}
