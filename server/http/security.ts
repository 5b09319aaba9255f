import type { FastifyInstance } from 'fastify';

/** Built once; the SPA needs inline styles (Griffel) and WebSockets to its own host. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self' ws: wss:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

export function installSecurityHeaders(app: FastifyInstance): void {
  // onRequest runs for every route, the 404 handler and errors raised while parsing the body.
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}
