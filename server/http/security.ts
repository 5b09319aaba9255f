import type { FastifyInstance, FastifyRequest } from 'fastify';

const CSP_BASE = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

/** A Host header safe to put in a header value: a DNS name or IPv4, or a bracketed IPv6, with an optional port. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * The SPA's CSP; `scriptHashes` (`'sha256-…'`) allow exactly those inline scripts (index.html's boot).
 * `connect-src` allows this origin only: CSP 3 makes `'self'` match ws:/wss: to the same host and
 * port, but WebKit before 2022 did not, so the page's own host is named for its WebSocket too. A Host header that is
 * not a plain host[:port] gets `'self'` alone (it never reaches the header unchecked). Memoised per host.
 */
const cspByHost = new Map<string, string>();
export function cspFor(host: string | undefined, scriptHashes: readonly string[] = []): string {
  const key = host && HOST.test(host) ? host : '';
  const cacheKey = `${key} ${scriptHashes.join(' ')}`;
  let csp = cspByHost.get(cacheKey);
  if (!csp) {
    const connect = key ? `connect-src 'self' ws://${key} wss://${key}` : "connect-src 'self'";
    const script = `script-src 'self'${scriptHashes.map((hash) => ` ${hash}`).join('')}`;
    csp = [...CSP_BASE.map((directive) => (directive.startsWith('script-src ') ? script : directive)), connect].join('; ');
    if (cspByHost.size >= 100) cspByHost.clear();
    cspByHost.set(cacheKey, csp);
  }
  return csp;
}

/** Headers on every answer, API or console. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

export const securityHeadersFor = (req: FastifyRequest): Record<string, string> => ({ ...SECURITY_HEADERS, 'content-security-policy': cspFor(req.headers.host) });

export function installSecurityHeaders(app: FastifyInstance): void {
  // onRequest runs for every route, the 404 handler and errors raised while parsing the body.
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    reply.header('content-security-policy', cspFor(req.headers.host));
    done();
  });
}
