import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import type { Lifecycle } from './http/access.ts';
import { frameworkError, installErrorHandlers } from './http/errors.ts';
import { safeLogger } from './http/log.ts';
import { installMultipart } from './http/multipart.ts';
import { closedFrame, type Module, registerModules } from './http/routes.ts';
import { installSecurityHeaders } from './http/security.ts';
import { installStatic } from './http/static.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import type { SecretBox } from './lib/secret-box.ts';
import type { DomainEvents } from './http/events.ts';
import { createBus } from './lib/bus.ts';
import { createGateways } from './modules/gateways/index.ts';
import { type AppDeps, modules as defaultModules } from './modules/index.ts';
import { createLiveSessions } from './modules/sessions/index.ts';
import { loadCatalogue, type ServerCatalogue } from './permissions/catalogue.ts';
import { createGatekeeper } from './permissions/principal.ts';

const BODY_LIMIT = 1024 * 1024;
const MAX_PARAM_LENGTH = 16 * 1024;
const SOCKET_MAX_PAYLOAD = 1024 * 1024;
/** After a stop's closing frames, how long a socket may take to answer the close handshake before it is cut. */
const STOP_SOCKET_GRACE_MS = 1000;

export interface AppOptions {
  config: Config;
  /** Opened and migrated (db/index.ts) and seeded (seed.ts) by the caller. */
  db: Db;
  /** Loaded once by the caller (lib/secret-box.ts `loadSecretBox`); tests give their own. */
  box: SecretBox;
  clock?: Clock;
  /** Fastify logger options; off when absent (tests). */
  logger?: FastifyServerOptions['logger'];
  /** Replaces the module list (tests add probe modules). */
  modules?: readonly Module<AppDeps>[];
  /** The permission keys (the one the database was seeded with); default: every manifest under plugins/. */
  catalogue?: ServerCatalogue;
}

/** The whole HTTP app, not listening: main.ts listens, tests use `inject`. */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config, db, box, clock = systemClock } = opts;
  const app = Fastify({
    logger: safeLogger(opts.logger),
    logController: new LogController({ disableRequestLogging: true }), // errors are logged, requests are not
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    frameworkErrors: frameworkError,
    // Comma id lists in `:id` (contract §1.8) outgrow find-my-way's default of 100 characters (~2 UUIDs), which
    // answers 404; Node's 16 KB header limit bounds the URL anyway, and each route's zod schema bounds the list.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
  });

  // Only JSON and form bodies: anything else is a 415, not a string handed to a handler.
  app.removeContentTypeParser('text/plain');
  // An empty JSON body (POST without payload but with the header) is "no body", not an error.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    json(req, text, done);
  });
  // 1.3.9 takes a few form posts (e.g. the admin's change-password); plain key → value.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  // …and its console sends the admin change-password as FormData: @fastify/multipart, text fields as the body.
  await installMultipart(app);
  const live = createLiveSessions();
  // A stop ends the live sessions first, each with its reason (the client's `0<reason>`, the row's code and message,
  // the recording flushed), then says it to every other socket (a monitor, an attach under way) with a clean 1000.
  // Added before @fastify/websocket so that it runs before the plugin's own preClose, which closes every socket bare
  // (1005) and would have the sessions recorded as the user leaving.
  app.addHook('preClose', async () => {
    const { ended, unfinished } = await live.closeAll(); // the stop's reason (live.ts CLOSE.serverStopped)
    if (ended > 0) app.log.info({ ended, unfinished }, 'live sessions ended for the stop');
    if (unfinished > 0) app.log.warn({ unfinished }, 'the stop did not wait for every session to be stored');
    const reason = live.stopping?.message ?? '';
    for (const socket of app.websocketServer.clients) {
      if (socket.readyState !== socket.OPEN) continue;
      socket.send(closedFrame(reason));
      socket.close(1000);
    }
    // A client that never answers the close handshake would hold the HTTP server's close for ws' 30 s.
    setTimeout(() => {
      for (const socket of app.websocketServer.clients) socket.terminate();
    }, STOP_SOCKET_GRACE_MS).unref();
  });
  // WebSocket routes (http/routes.ts socketRoute): the terminal and its monitor. Text frames of at most 1 MiB (a
  // paste); no compression (it costs the relay CPU for output that is mostly small frames on a fast link).
  await app.register(websocket, { options: { maxPayload: SOCKET_MAX_PAYLOAD, perMessageDeflate: false } });

  app.decorateRequest('principal', null);
  installSecurityHeaders(app);
  installErrorHandlers(app);
  const catalogue = opts.catalogue ?? (await loadCatalogue());
  const gateways = createGateways({ db, box, log: app.log });
  const onReady: (() => Promise<void> | void)[] = [];
  const onClose: (() => Promise<void> | void)[] = [];
  const lifecycle: Lifecycle = { onReady: (fn) => onReady.push(fn), onClose: (fn) => onClose.push(fn) };
  const events = createBus<DomainEvents>((name, err) => app.log.error({ err }, `a reaction to ${name} failed`));
  const gatekeeper = createGatekeeper({ db, clock, catalogue });
  // The composition root: the app's services, then the services of modules that others use (their faces).
  const deps: AppDeps = { db, config, clock, log: app.log, box, catalogue, gatekeeper, events, lifecycle, gateways, live };
  app.addHook('onReady', async () => {
    for (const fn of onReady) await fn();
  });
  app.addHook('onClose', async () => {
    for (const fn of onClose) await fn();
    await live.closeAll(); // none left after preClose: one registered since ends as it is added
    await gateways.close();
  });
  registerModules(app, deps, opts.modules ?? defaultModules);
  await installStatic(app, config.distDir, config.brand);
  return app;
}
