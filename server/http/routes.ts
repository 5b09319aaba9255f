import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Access, Deps } from './access.ts';
import { authorize, type Principal, resolvePrincipal, tokenOf } from './auth.ts';
import { ApiError, ok } from './envelope.ts';
import { parseInput } from './validation.ts';

// Deps and Access live in ./access.ts, which auth.ts needs too (no import cycle between auth.ts and this file).
export type { Access, Deps } from './access.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteContext<A extends Access, B extends Schema, Q extends Schema, P extends Schema> {
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
  /** Null only on anonymous routes. */
  principal: A extends 'anonymous' ? null : Principal;
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteSpec<A extends Access, B extends Schema, Q extends Schema, P extends Schema> {
  method: Method;
  /** Fastify path syntax, e.g. `/users/:id`. */
  path: string;
  allow: A;
  body?: B;
  query?: Q;
  params?: P;
  /** Returns the envelope's `data`, or throws an ApiError (`fail(...)`). Returning `reply` means "already answered" (files). */
  handler: (ctx: RouteContext<A, B, Q, P>) => unknown;
}

/** A route with its types erased, as the registry stores it. */
export interface RouteDef {
  method: Method;
  path: string;
  allow: Access;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  // biome-ignore lint/suspicious/noExplicitAny: erased context; `route()` checks the handler against its own schemas.
  handler: (ctx: RouteContext<any, any, any, any>) => unknown;
}

/** Declares one route; the generics tie the handler's `body`/`query`/`params`/`principal` types to the spec. */
export function route<const A extends Access, B extends Schema = undefined, Q extends Schema = undefined, P extends Schema = undefined>(
  spec: RouteSpec<A, B, Q, P>,
): RouteDef {
  return spec as RouteDef;
}

export interface Module {
  name: string;
  routes: (deps: Deps) => RouteDef[];
}

/** A module: a name and a function from the app's deps to its routes (module state lives in that closure). */
export const defineModule = (name: string, routes: (deps: Deps) => RouteDef[]): Module => ({ name, routes });

declare module 'fastify' {
  interface FastifyInstance {
    /** Every API route declared by the modules, for tests and tooling. */
    routeRegistry: readonly RouteDef[];
  }
}

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Registers every module's routes, plus a 405 envelope for the other methods of each known path. */
export function registerModules(app: FastifyInstance, deps: Deps, modules: readonly Module[]): void {
  const registry: RouteDef[] = [];
  for (const mod of modules) {
    for (const def of mod.routes(deps)) {
      registry.push(def);
      app.route({
        method: def.method,
        url: def.path,
        onRequest:
          def.allow === 'anonymous'
            ? undefined
            : async (req) => {
                const principal = await resolvePrincipal(deps, tokenOf(req));
                await authorize(def.allow as Exclude<Access, 'anonymous'>, principal);
                req.principal = principal;
              },
        handler: async (req, reply) => {
          const result = await def.handler({
            body: parseInput('body', def.body, req.body),
            query: parseInput('query', def.query, req.query),
            params: parseInput('params', def.params, req.params),
            principal: req.principal,
            req,
            reply,
          });
          if (result === reply) return reply;
          reply.header('cache-control', 'no-store');
          return ok(result ?? null);
        },
      });
    }
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

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}
