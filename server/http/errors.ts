import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './envelope.ts';
import { languageOf } from './language.ts';
import { securityHeadersFor } from './security.ts';
import { isStaticPath, staticError } from './static.ts';

/** Fastify's own client errors, by code, with the message the envelope carries. */
const CLIENT_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'body: invalid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'body: empty JSON body'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'body: larger than the 1 MB limit'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported Media Type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'body: Content-Length does not match the body'],
  FST_ERR_CTP_INVALID_TYPE: [400, 'Content-Type: invalid'],
};

/** Fastify's `frameworkErrors` option: errors raised before routing (a malformed URL), which skip hooks. */
export function frameworkError(_err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  reply.headers(securityHeadersFor(req));
  if (isStaticPath(req.url)) {
    staticError(reply, 400);
    return;
  }
  reply.code(200).header('cache-control', 'no-store').send(new ApiError(400, 'url: invalid').toEnvelope());
}

/**
 * Every thrown error on an API path ends as an envelope, HTTP 200 (envelope.ts), its message in the caller's language
 * (language.ts); only true bugs become 500, logged, with a generic message. Static paths (the console) answer real HTTP statuses with a plain-text body instead.
 */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    if (isStaticPath(req.url) && !(err instanceof ApiError)) {
      const status = err.statusCode ?? 500;
      if (status >= 500) req.log.error({ err, url: req.url, method: req.method }, 'unhandled error');
      return staticError(reply, status >= 400 && status < 600 ? status : 500);
    }
    let e: ApiError;
    if (err instanceof ApiError) {
      e = err;
    } else {
      const known = CLIENT_ERRORS[err.code];
      const status = err.statusCode ?? 500;
      if (known) e = new ApiError(known[0], known[1]);
      else if (status >= 400 && status < 500) e = new ApiError(status, err.message);
      else {
        req.log.error({ err, url: req.url, method: req.method }, 'unhandled error');
        e = new ApiError(500, 'Internal Server Error');
      }
    }
    return reply.code(200).header('cache-control', 'no-store').send(e.toEnvelope(languageOf(req)));
  });

  app.setNotFoundHandler((req, reply) => {
    if (isStaticPath(req.url)) {
      // A known static path with another method is a 405 (only GET/HEAD are routed there); anything else a 404.
      if (req.method !== 'GET' && req.method !== 'HEAD') return staticError(reply.header('allow', 'GET, HEAD'), 405);
      return staticError(reply, 404);
    }
    return reply.code(200).header('cache-control', 'no-store').send(new ApiError(404, 'Not Found').toEnvelope());
  });
}
