import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type FirstScreenRequest, type RenderedFirstScreen, SERVER_RENDER, type ServerRender } from '../../../shared/first-screen.ts';
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

/*
 * The build's render runs in a worker thread of its own, started without this process's loaders (`execArgv: []`): it is
 * plain JavaScript importing only Node's built-ins. Imported here instead, under `npm start`'s tsx, its 5 MB went
 * through tsx's loader thread (a rewrite of its dynamic imports with a full source map), which kept ≈ 400 MB resident
 * after start: a fresh server held ≈ 570 MB instead of ≈ 160 (docs/PERFORMANCE.md). The worker costs a few MB, and a
 * render's CPU (10–20 ms, most of it synchronous) leaves the event loop too. The caller's GETs still run here, through
 * this API with the caller's token: the worker asks for each one.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const asked = new Map();
let seq = 0;
import(workerData.href).then(
  (module) => {
    if (typeof module.renderFirstScreen !== 'function') throw new Error(workerData.href + ' exports no renderFirstScreen');
    parentPort.on('message', (message) => {
      if (message.type === 'got') {
        const waiting = asked.get(message.ask);
        asked.delete(message.ask);
        if (waiting) 'error' in message ? waiting.reject(new Error(message.error)) : waiting.resolve(message.body);
        return;
      }
      const { render, request } = message;
      const get = (url) =>
        new Promise((resolve, reject) => {
          const ask = ++seq;
          asked.set(ask, { resolve, reject });
          parentPort.postMessage({ type: 'get', render, ask, url });
        });
      module.renderFirstScreen({ ...request, get }).then(
        (screen) => parentPort.postMessage({ type: 'done', render, screen }),
        (error) => parentPort.postMessage({ type: 'failed', render, error: String((error && error.stack) || error) }),
      );
    });
    parentPort.postMessage({ type: 'ready' });
  },
  (error) => parentPort.postMessage({ type: 'unusable', error: String((error && error.stack) || error) }),
);
`;

type FromWorker =
  | { type: 'ready' }
  | { type: 'unusable'; error: string }
  | { type: 'get'; render: number; ask: number; url: string }
  | { type: 'done'; render: number; screen: RenderedFirstScreen | null }
  | { type: 'failed'; render: number; error: string };

interface RenderWorker extends ServerRender {
  stop(): Promise<void>;
}

/**
 * Starts the worker on `file`; resolves once the module is loaded (rejects when it cannot be: not a render module, a
 * syntax error). `gone` is called if the worker ends later (a crash): the renders under way fail, the next is refused.
 */
function startRenderWorker(file: string, gone: (error: Error) => void): Promise<RenderWorker> {
  return new Promise((resolveStarted, rejectStarted) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { href: pathToFileURL(file).href } });
    worker.unref(); // the HTTP server keeps the process alive, not this
    const renders = new Map<number, { get: FirstScreenRequest['get']; resolve: (screen: RenderedFirstScreen | null) => void; reject: (error: Error) => void }>();
    let seq = 0;
    let started = false;
    let ended: Error | undefined;
    const end = (error: Error, stopping = false) => {
      if (ended) return;
      ended = error;
      for (const waiting of renders.values()) waiting.reject(error);
      renders.clear();
      if (!started) rejectStarted(error);
      else if (!stopping) gone(error);
    };
    worker.on('message', (message: FromWorker) => {
      switch (message.type) {
        case 'ready':
          started = true;
          resolveStarted({
            renderFirstScreen: ({ get, ...request }) =>
              new Promise((resolve, reject) => {
                if (ended) return reject(ended);
                const render = ++seq;
                renders.set(render, { get, resolve, reject });
                worker.postMessage({ render, request });
              }),
            stop: async () => {
              end(new Error('first-screen: the server is stopping'), true);
              await worker.terminate();
            },
          });
          break;
        case 'unusable':
          end(new Error(message.error));
          void worker.terminate();
          break;
        case 'get': {
          const { render, ask, url } = message;
          const asking = renders.get(render);
          if (!asking) break;
          asking.get(url).then(
            (body) => worker.postMessage({ type: 'got', ask, body }),
            (error: unknown) => worker.postMessage({ type: 'got', ask, error: String(error) }),
          );
          break;
        }
        case 'done':
        case 'failed': {
          const waiting = renders.get(message.render);
          renders.delete(message.render);
          if (message.type === 'done') waiting?.resolve(message.screen);
          else waiting?.reject(new Error(message.error));
          break;
        }
      }
    });
    worker.on('error', (error) => end(error));
    worker.on('exit', (code) => end(new Error(`first-screen: the render worker exited (${code})`)));
  });
}

/**
 * The build's render of first screens (core/app/serverFirstScreen.tsx), started once on first use; null when this
 * dist has none (not built, an older build, the API run alone). A module that fails to load is reported once and
 * treated as absent: the console then simply renders as it always did. A worker that ends later is started again on
 * the next visit.
 */
function serverRenderLoader(distDir: string, warn: (error: unknown) => void): { load: () => Promise<ServerRender | null>; stop: () => Promise<void> } {
  let loading: Promise<RenderWorker | null> | null = null;
  const file = path.join(distDir, SERVER_RENDER.dir, SERVER_RENDER.file);
  const load = () => {
    loading ??= fs.promises
      .access(file)
      .then(
        () =>
          startRenderWorker(file, (error) => {
            warn(error);
            loading = null;
          }),
        () => null,
      )
      .catch((error: unknown) => {
        warn(error);
        return null;
      });
    return loading;
  };
  const stop = async () => {
    const running = await loading;
    loading = Promise.resolve(null);
    await running?.stop();
  };
  return { load, stop };
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
  const renderer = serverRenderLoader(config.distDir, (error) => log.warn({ err: error }, 'first-screen: the build’s server render did not load'));
  const loadRender = renderer.load;
  // Loaded in the background once the server is up (≈ 5 MB of code): the first visit after a start is drawn too.
  lifecycle.onReady(() => void loadRender());
  lifecycle.onClose(renderer.stop);
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
