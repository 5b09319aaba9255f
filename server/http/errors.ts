import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './envelope.ts';
import { SECURITY_HEADERS } from './security.ts';

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
export function frameworkError(_err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  reply.code(400).headers(SECURITY_HEADERS).header('cache-control', 'no-store').send(new ApiError(400, 'url: invalid').toEnvelope());
}

/** Every thrown error ends as an envelope; only true bugs become 500, logged, with a generic message. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
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
    return reply.code(e.status).header('cache-control', 'no-store').send(e.toEnvelope());
  });

  app.setNotFoundHandler((_req, reply) => reply.code(404).send(new ApiError(404, 'Not Found').toEnvelope()));
}
