import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BRANDING_MARKER, FIRST_SCREEN } from '../../shared/first-screen.ts';
import { ok } from './envelope.ts';
import { cspFor } from './security.ts';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** index.html's inline boot, as the build writes it (scripts/prerender-first-screen.ts). */
const BOOT_OPEN = `<script id="${FIRST_SCREEN.boot}">`;

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

/** JSON inside a <script> element: nothing in it may close the element or start a comment. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The CSP source of index.html's inline boot script (its hash), or null when the build has none. */
export function bootScriptHash(html: string): string | null {
  const start = html.indexOf(BOOT_OPEN);
  if (start < 0) return null;
  const end = html.indexOf('</script>', start);
  if (end < 0) return null;
  const code = html.slice(start + BOOT_OPEN.length, end);
  return `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`;
}

interface IndexPage {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
  bootHash: string | null;
}

/**
 * index.html as served: the branding written in (the answer GET /branding gives, so the prerendered login page shows
 * it before any script and the console need not ask), compressed once per content. `brand` is the server's.
 */
function createIndexPages(indexFile: string, brand: unknown) {
  let cached: { source: string; page: Promise<IndexPage> } | null = null;
  const build = async (source: string): Promise<IndexPage> => {
    const text = source.replace(
      BRANDING_MARKER,
      `<script type="application/json" id="${FIRST_SCREEN.branding}">${scriptJson(ok(brand))}</script>`,
    );
    const html = Buffer.from(text, 'utf8');
    const [br, gzipped] = await Promise.all([brotli(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }), gz(html, { level: 9 })]);
    return { html, br, gzip: gzipped, bootHash: bootScriptHash(text) };
  };
  return async (): Promise<IndexPage> => {
    // Read per request: small, and picks up a rebuild without a restart.
    const source = await fs.promises.readFile(indexFile, 'utf8');
    if (cached?.source !== source) cached = { source, page: build(source) };
    return cached.page;
  };
}

/** The compression a request takes, brotli first (index.html, the static files, GET /first-screen). */
export function acceptedEncoding(req: FastifyRequest): 'br' | 'gzip' | null {
  const accept = String(req.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accept)) return 'br';
  if (/\bgzip\b/.test(accept)) return 'gzip';
  return null;
}

/**
 * The built console: `/` → index.html, never cached (so a deploy shows at once); `/static/*` → hashed
 * assets, cached for a year as immutable, brotli or gzip when the browser accepts it; `/favicon.ico`.
 * A missing build gives a plain explanation.
 */
export async function installStatic(app: FastifyInstance, distDir: string, brand: unknown = null): Promise<void> {
  const indexPage = createIndexPages(path.join(distDir, 'index.html'), brand);
  app.get('/', async (req, reply) => {
    let page: IndexPage;
    try {
      page = await indexPage();
    } catch {
      return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(NOT_BUILT);
    }
    // The inline boot is allowed by its hash, nothing else inline.
    if (page.bootHash) reply.header('content-security-policy', cspFor(req.headers.host, [page.bootHash]));
    const encoding = acceptedEncoding(req);
    reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.html);
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
