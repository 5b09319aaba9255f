import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';

const NOT_BUILT =
  'The Jumpgate console is not built (no index.html in the dist folder).\n' +
  'Run `npm start` (it builds the console when needed) or `npm run build`, then reload.\n' +
  'The API is running.\n';

/**
 * Paths served by the console half (`/`, `/favicon.ico`, `/static/*`): their errors use real HTTP statuses and a
 * plain-text body, never the API envelope. Everything else is the API.
 */
export function isStaticPath(url: string): boolean {
  const path = url.split('?', 1)[0]!;
  return path === '/' || path === '/favicon.ico' || path.startsWith('/static/');
}

/** A static-path error: the real status, its standard text. */
export function staticError(reply: FastifyReply, status: number): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send(`${STATUS_CODES[status] ?? 'Error'}\n`);
}

/**
 * The built console: `/` → index.html, never cached (so a deploy shows at once); `/static/*` → hashed
 * assets, cached for a year as immutable, brotli or gzip when the browser accepts it; `/favicon.ico`.
 * A missing build gives a plain explanation.
 */
export async function installStatic(app: FastifyInstance, distDir: string): Promise<void> {
  const index = path.join(distDir, 'index.html');
  app.get('/', async (_req, reply) => {
    let html: Buffer;
    try {
      // Read per request: small, and picks up a rebuild without a restart.
      html = await fs.promises.readFile(index);
    } catch {
      return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(NOT_BUILT);
    }
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  });

  app.get('/favicon.ico', async (_req, reply) => {
    try {
      const icon = await fs.promises.readFile(path.join(distDir, 'favicon.ico'));
      return reply.header('cache-control', 'public, max-age=86400').type('image/x-icon').send(icon);
    } catch {
      return reply.callNotFound();
    }
  });

  const assets = path.join(distDir, 'static');
  if (fs.existsSync(assets)) {
    await app.register(fastifyStatic, {
      root: assets,
      prefix: '/static/',
      index: false,
      dotfiles: 'ignore', // never serve a dot file that lands in the folder (404)
      decorateReply: false,
      cacheControl: false, // set below, so the header is exactly ours
      // The build writes .br and .gz beside each asset (scripts/precompress.ts): sent to browsers that accept
      // them, with `vary: accept-encoding`; the plain file otherwise.
      preCompressed: true,
      setHeaders: (reply) => reply.header('cache-control', 'public, max-age=31536000, immutable'),
    });
  }
}
