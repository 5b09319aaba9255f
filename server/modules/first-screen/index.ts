import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type RenderedFirstScreen, SERVER_RENDER, type ServerRender } from '../../../shared/first-screen.ts';
import { tokenOf } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { defineModule, route } from '../../http/routes.ts';
import { acceptedEncoding } from '../../http/static.ts';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Renders running at once (each ≈ 10–20 ms of CPU, most of it synchronous). */
export const MAX_RENDERING = 4;

const firstScreenQuery = z.object({
  // A console route's path: what the URL's hash holds before its query (`/user`).
  path: z.string().max(256).regex(/^\/[A-Za-z0-9/_-]*$/, 'expected a console path such as /user'),
  lng: z.string().max(16).optional(),
});

/**
 * The build's render of first screens (core/app/serverFirstScreen.tsx), loaded once on first use; null when this
 * dist has none (not built, an older build, the API run alone). A module that fails to load is reported once and
 * treated as absent: the console then simply renders as it always did.
 */
function serverRenderLoader(distDir: string, warn: (error: unknown) => void): () => Promise<ServerRender | null> {
  let loading: Promise<ServerRender | null> | null = null;
  const file = path.join(distDir, SERVER_RENDER.dir, SERVER_RENDER.file);
  return () => {
    loading ??= fs.promises
      .access(file)
      .then(
        async () => {
          const module = (await import(pathToFileURL(file).href)) as Partial<ServerRender>;
          if (typeof module.renderFirstScreen !== 'function') throw new Error(`${file} exports no renderFirstScreen`);
          return module as ServerRender;
        },
        () => null,
      )
      .catch((error: unknown) => {
        warn(error);
        return null;
      });
    return loading;
  };
}

/** The envelope, compressed when the browser takes it (the markup, its stylesheet and answers are ≈ 120 KB, ≈ 15 KB as brotli). */
async function sendCompressed(req: FastifyRequest, reply: FastifyReply, screen: RenderedFirstScreen | null): Promise<FastifyReply> {
  const json = Buffer.from(JSON.stringify(ok(screen)));
  const encoding = acceptedEncoding(req);
  reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-encoding');
  if (encoding === 'br') return reply.header('content-encoding', 'br').send(await brotli(json, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }));
  if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(await gz(json));
  return reply.send(json);
}

/**
 * GET /first-screen: a signed-in visit's first screen drawn by the server, as the caller's console would render it
 * (issue 10: a list page's rows painted before the console's code has arrived). index.html's boot asks for it and
 * shows it until the app has rendered the same page (core/app/firstScreenBoot.ts). Any signed-in caller: the render
 * runs the caller's own GETs through this API with the caller's token, so it shows only what those would answer, and
 * draws nothing for a page the caller may not open. `data: null` = nothing to draw.
 */
export default defineModule('first-screen', ({ config, log, lifecycle }) => {
  const loadRender = serverRenderLoader(config.distDir, (error) => log.warn({ err: error }, 'first-screen: the build’s server render did not load'));
  // Loaded in the background once the server is up (≈ 5 MB of code): the first visit after a start is drawn too.
  lifecycle.onReady(() => void loadRender());
  // Renders at once, at most: a burst of calls (a flood from one token, many consoles opening together) gets
  // `null` past this, and those consoles render their pages themselves, as without the drawing.
  let rendering = 0;
  return [
    route({
      method: 'GET',
      path: '/first-screen',
      allow: 'authenticated',
      query: firstScreenQuery,
      handler: async ({ query, req, reply, lng }) => {
        const render = await loadRender();
        const token = tokenOf(req);
        if (!render || !token || rendering >= MAX_RENDERING) return null;
        // The caller's own request, as the caller would send it (the same token, address and language).
        const get = async (url: string): Promise<unknown> =>
          (await req.server.inject({ method: 'GET', url, headers: { 'x-auth-token': token, 'accept-language': lng }, remoteAddress: req.ip })).json();
        let screen: RenderedFirstScreen | null = null;
        rendering += 1;
        try {
          screen = await render.renderFirstScreen({ path: query.path, lng: query.lng ?? '', token, get });
        } catch (error) {
          // The console renders the page itself a moment later and shows what fails there.
          req.log.warn({ err: error, path: query.path }, 'first-screen: render failed');
        } finally {
          rendering -= 1;
        }
        return sendCompressed(req, reply, screen);
      },
    }),
  ];
});
