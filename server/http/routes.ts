// Its type augmentation (`req.ws`, `wsHandler` on a route) is what registerSocketRoute uses; app.ts registers it.
import type {} from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { z } from 'zod';
import { DEFAULT_LNG, type Lng, type Message, say, text } from '../lib/i18n.ts';
import { type Access, type Deps, type Gate, type Principal, type ServerCatalogue, tokenOf } from './access.ts';
import { ApiError, MSG_LOGIN_ONLY, ok } from './envelope.ts';
import { languageOf } from './language.ts';
import type { FileStreamLimits, UploadLimits } from './multipart.ts';
import { parseInput } from './validation.ts';

// Deps, Access and Gate live in ./access.ts, which the permissions floor implements against.
export type { Access, Deps, Gate } from './access.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteContext<A extends Access, B extends Schema, Q extends Schema, P extends Schema> {
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
  /** Null only on anonymous routes. */
  principal: A extends 'anonymous' ? null : Principal;
  /** The language the caller reads (language.ts): for texts in a successful answer; failures are said for you. */
  lng: Lng;
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteSpec<A extends Access, B extends Schema, Q extends Schema, P extends Schema> {
  method: Method;
  /** Fastify path syntax, e.g. `/users/:id`. */
  path: string;
  allow: A;
  /**
   * A login token is required: a personal access token is refused with a 403 envelope (MSG_LOGIN_ONLY). For what a
   * leaked access token must not reach: the password, TOTP and the access token itself.
   */
  loginOnly?: boolean;
  body?: B;
  query?: Q;
  params?: P;
  /** Files this route takes in a multipart body (found in `req.uploads`); without it a file part is a 400. */
  upload?: UploadLimits;
  /**
   * One file this route reads as a stream, never buffered (`req.fileStream`; the handler calls `take()` and pipes
   * it). The text fields before the file part are the body, validated as usual, before the handler sees the file.
   */
  fileStream?: FileStreamLimits;
  /** Bytes a multipart body's text fields may carry together on this route (default 64 KiB): a form that posts a whole text file. */
  maxFieldBytes?: number;
  /**
   * A check that needs no body (whose session it is), run on a multipart body after the token, the gate, the query
   * and the params, before a byte of the form is read: a refusal here costs the server no upload. Throws like the
   * handler.
   */
  beforeBody?: (ctx: { params: Out<P>; principal: A extends 'anonymous' ? null : Principal }) => unknown;
  /** Returns the envelope's `data`, or throws an ApiError (`fail(...)`). Returning `reply` means "already answered" (files). */
  handler: (ctx: RouteContext<A, B, Q, P>) => unknown;
}

/** A route with its types erased, as the modules declare it. */
export interface RouteDef {
  method: Method;
  path: string;
  allow: Access;
  loginOnly?: boolean;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  upload?: UploadLimits;
  /** A WebSocket route (`socketRoute`): `handler` gets the upgraded socket in `ctx.socket`. */
  websocket?: true;
  fileStream?: FileStreamLimits;
  maxFieldBytes?: number;
  // biome-ignore lint/suspicious/noExplicitAny: erased context, as for the handler below.
  beforeBody?: (ctx: { params: any; principal: any }) => unknown;
  // biome-ignore lint/suspicious/noExplicitAny: erased context; `route()` checks the handler against its own schemas.
  handler: (ctx: RouteContext<any, any, any, any> & { socket?: WebSocket }) => unknown;
}

/** Declares one route; the generics tie the handler's `body`/`query`/`params`/`principal` types to the spec. */
export function route<const A extends Access, B extends Schema = undefined, Q extends Schema = undefined, P extends Schema = undefined>(
  spec: RouteSpec<A, B, Q, P>,
): RouteDef {
  return spec as RouteDef;
}

export interface SocketRouteSpec<A extends Access, Q extends Schema, P extends Schema> {
  path: string;
  allow: A;
  query?: Q;
  params?: P;
  /**
   * Runs once the socket is upgraded and the token, gate and inputs passed. Throwing an ApiError (`fail(...)`) sends
   * the frame `0<message>` and closes; so does any refusal before (401, 403, 400).
   */
  handler: (ctx: Omit<RouteContext<A, undefined, Q, P>, 'body' | 'reply'> & { socket: WebSocket }) => unknown;
}

/**
 * Declares a WebSocket route (GET). It passes the same token (query `X-Auth-Token`), gate and zod checks as every
 * route, so the permission matrix and the bad-input sweep cover it; a plain GET (no upgrade) gets, after those
 * checks, the envelope `400 upgrade: 需要 WebSocket 连接`. On an upgraded socket a refusal is the frame
 * `0<message>` followed by a close (the 1.3.9 terminal shows that text), never an HTTP answer.
 */
export function socketRoute<const A extends Access, Q extends Schema = undefined, P extends Schema = undefined>(spec: SocketRouteSpec<A, Q, P>): RouteDef {
  return { ...spec, method: 'GET', websocket: true } as unknown as RouteDef;
}

export const MSG_NEEDS_UPGRADE = text('upgrade: 需要 WebSocket 连接', 'upgrade: a WebSocket connection is needed');
const MSG_SOCKET_FAILED = text('服务器内部错误', 'Internal server error');

/**
 * The text frame that tells a terminal why its socket closes (contract §5.1 type 0). Modules write the reason in
 * zh-CN, declared with `text` (lib/i18n.ts); the socket says it in its caller's language as the frame leaves
 * (`speakOnSocket`).
 */
export const closedFrame = (message: string) => `0${message}`;

/**
 * Every closed frame this socket sends is said in `lng` (lib/i18n.ts), whichever module sends it: the relay's close
 * reasons, the monitor's, a refusal. Data frames pass untouched (one character compared per frame).
 */
function speakOnSocket(socket: WebSocket, lng: Lng): void {
  if (lng === DEFAULT_LNG) return;
  const send = socket.send.bind(socket) as (data: unknown, ...rest: unknown[]) => void;
  const speaking = (data: unknown, ...rest: unknown[]) =>
    send(typeof data === 'string' && data.charCodeAt(0) === 48 ? `0${say(data.slice(1), lng)}` : data, ...rest);
  socket.send = speaking as WebSocket['send'];
}

/**
 * A module: a name and a function from the app's deps to its routes (module state lives in that closure). `D` is what
 * it needs: the app's Deps, plus the services of lower modules it uses (their faces type them; app.ts builds them).
 */
export interface Module<D extends Deps = Deps> {
  name: string;
  routes: (deps: D) => RouteDef[];
}

export const defineModule = <D extends Deps = Deps>(name: string, routes: (deps: D) => RouteDef[]): Module<D> => ({ name, routes });

declare module 'fastify' {
  interface FastifyInstance {
    /** Every API route declared by the modules, its gate resolved from the manifests, for tests and tooling. */
    routeRegistry: readonly RegisteredRoute[];
  }
}

/** A registered route: `gate` is its `allow` with 'granted' resolved to the keys that grant it. */
export interface RegisteredRoute extends RouteDef {
  gate: Gate;
}

/**
 * Resolves every route's gate from the manifests. Fails the start when a 'granted' route is granted by no key, or a
 * key grants a route that no module declares as 'granted' (a typo, or a gate that would silently stay closed).
 */
export function resolveGates(defs: readonly RouteDef[], catalogue: ServerCatalogue): RegisteredRoute[] {
  const granted = new Set<string>();
  const resolved = defs.map((def): RegisteredRoute => {
    const ref = `${def.method} ${def.path}`;
    if (def.allow !== 'granted') return { ...def, gate: def.allow === 'super-admin' ? [] : def.allow };
    granted.add(ref);
    const keys = catalogue.keysGranting(ref);
    if (keys.length === 0) throw new Error(`route ${ref} is allowed to 'granted' keys, but no plugin manifest grants it`);
    return { ...def, gate: keys };
  });
  for (const ref of catalogue.grantedRoutes()) {
    if (!granted.has(ref)) {
      const keys = catalogue.keysGranting(ref).join(', ');
      throw new Error(`manifest key(s) ${keys} grant "${ref}", which no module declares with allow: 'granted'`);
    }
  }
  return resolved;
}

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Registers every module's routes, plus a 405 envelope for the other methods of each known path. */
export function registerModules<D extends Deps>(app: FastifyInstance, deps: D, modules: readonly Module<D>[]): void {
  const registry = resolveGates(
    modules.flatMap((mod) => mod.routes(deps)),
    deps.catalogue,
  );
  for (const def of registry) {
    if (def.websocket) {
      registerSocketRoute(app, deps, def);
      continue;
    }
    app.route({
      method: def.method,
      url: def.path,
      config: {
        upload: def.upload,
        fileStream: def.fileStream,
        maxFieldBytes: def.maxFieldBytes,
        // The query and params are checked first (a 400 before the route's own refusals, as the handler has it).
        beforeBody: def.beforeBody
          ? (req: FastifyRequest) => {
              parseInput('query', def.query, req.query);
              return def.beforeBody!({ params: parseInput('params', def.params, req.params), principal: req.principal });
            }
          : undefined,
      },
      onRequest: def.gate === 'anonymous' ? undefined : (req) => admit(deps, def, req),
      handler: async (req, reply) => {
        let result: unknown;
        try {
          result = await def.handler({
            body: parseInput('body', def.body, req.body),
            query: parseInput('query', def.query, req.query),
            params: parseInput('params', def.params, req.params),
            principal: req.principal,
            lng: languageOf(req),
            req,
            reply,
          });
        } finally {
          req.fileStream?.dropUnlessTaken();
        }
        // A handler that answered itself (a download) returns `reply`; awaiting that thenable yields undefined once the
        // response has ended, so the reply's state is what tells. Sending again would log "Reply was already sent"
        // with the URL (and its ?X-Auth-Token=). Returning `reply` settles without a payload: nothing more is sent.
        if (reply.sent || reply.raw.headersSent) return reply;
        reply.header('cache-control', 'no-store');
        return ok(result ?? null);
      },
    });
  }

  const methodsByPath = new Map<string, Set<string>>();
  for (const r of registry) {
    const set = methodsByPath.get(r.path) ?? new Set<string>();
    set.add(r.method);
    if (r.method === 'GET') set.add('HEAD'); // Fastify answers HEAD for every GET route
    methodsByPath.set(r.path, set);
  }
  for (const [path, taken] of methodsByPath) {
    const others = ALL_METHODS.filter((m) => !taken.has(m));
    app.route({
      method: others,
      url: path,
      handler: async () => {
        throw new ApiError(405, 'Method Not Allowed');
      },
    });
  }
  app.decorate('routeRegistry', registry);
}

/** The token and gate checks of a route: sets `req.principal` or throws the 401/403 envelope. */
async function admit(deps: Deps, def: RegisteredRoute, req: FastifyRequest): Promise<void> {
  const principal = await deps.gatekeeper.principal(tokenOf(req));
  await deps.gatekeeper.authorize(def.gate as Exclude<Gate, 'anonymous'>, principal);
  if (def.loginOnly && !principal?.tokenId) throw new ApiError(403, MSG_LOGIN_ONLY);
  req.principal = principal;
}

/**
 * A WebSocket route (@fastify/websocket): an upgrade request runs the checks after the upgrade, so that a refusal
 * reaches the browser as a `0<reason>` frame (an HTTP answer to an upgrade is only "connection failed" there);
 * a plain GET runs the same checks and gets an envelope error.
 */
function registerSocketRoute(app: FastifyInstance, deps: Deps, def: RegisteredRoute): void {
  const check = async (req: FastifyRequest) => {
    if (def.gate !== 'anonymous') await admit(deps, def, req);
    return {
      query: parseInput('query', def.query, req.query),
      params: parseInput('params', def.params, req.params),
    };
  };
  app.route({
    method: 'GET',
    url: def.path,
    handler: async () => {
      throw new ApiError(400, MSG_NEEDS_UPGRADE); // reached only after the checks below (preHandler) passed
    },
    preHandler: async (req) => {
      if (!req.ws) await check(req);
    },
    wsHandler: async (socket, req) => {
      speakOnSocket(socket, languageOf(req));
      let inputs: Awaited<ReturnType<typeof check>>;
      try {
        inputs = await check(req);
      } catch (error) {
        return refuse(socket, req, error);
      }
      try {
        await def.handler({ ...inputs, body: undefined, principal: req.principal, lng: languageOf(req), req, reply: undefined as unknown as FastifyReply, socket });
      } catch (error) {
        refuse(socket, req, error);
      }
    },
  });
}

function refuse(socket: WebSocket, req: FastifyRequest, error: unknown): void {
  let message: Message = MSG_SOCKET_FAILED;
  if (error instanceof ApiError) message = error.text;
  else req.log.error({ err: error }, 'websocket handler failed');
  if (socket.readyState === socket.OPEN) {
    socket.send(closedFrame(say(message, languageOf(req))));
    socket.close(1000);
  } else {
    socket.terminate();
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}
