import axios, { AxiosError, type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { matchPath } from 'react-router-dom';
import type { HttpMethod } from '../api/client';

/** One request as the fake server saw it. */
export interface FakeRequest {
  method: HttpMethod;
  /** Path without query, e.g. `/users/7`. */
  path: string;
  /** The URL as requested, query included (`/users/paging?pageIndex=1&pageSize=10`): what `opensWith` declares. */
  url: string;
  /** Path parameters of the matched key (`GET /users/:id` → `{ id: '7' }`). */
  params: Record<string, string>;
  /** Query string parameters. */
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string>;
}

const REPLY = Symbol('fake-api-reply');
export type FakeReply =
  | { [REPLY]: 'envelope'; code: number; message: string; data: unknown }
  | { [REPLY]: 'http'; status: number; body: unknown }
  | { [REPLY]: 'network' };

/** Special answers: a whole envelope (any code), an HTTP error, or a network failure. */
export const reply = {
  envelope: (code: number, message = '', data: unknown = null): FakeReply => ({ [REPLY]: 'envelope', code, message, data }),
  http: (status: number, body: unknown = { message: `HTTP ${status}` }): FakeReply => ({ [REPLY]: 'http', status, body }),
  networkError: (): FakeReply => ({ [REPLY]: 'network' }),
};

/** Handler: the `data` to answer with (code 1), a `reply.*`, or a function of the request returning either. */
export type FakeHandler = unknown;
/** Keyed like `'GET /users/paging'` or `'DELETE /users/:id'`. */
export type FakeHandlers = Record<string, FakeHandler>;

export interface FakeApi {
  adapter: AxiosAdapter;
  /** Every request, in order (answered or not). */
  calls: FakeRequest[];
  /** Requests nobody declared; the harness fails the test when this is not empty. */
  unexpected: FakeRequest[];
  /** Add or replace handlers (e.g. between steps of a test). */
  on(handlers: FakeHandlers): void;
  /** Calls to one key, e.g. `callsTo('POST /account/logout')`. */
  callsTo(key: string): FakeRequest[];
}

export class UnexpectedRequestError extends Error {
  constructor(request: FakeRequest) {
    super(
      `Unexpected request ${request.method} ${request.path}` +
        `${Object.keys(request.query).length ? ` query=${JSON.stringify(request.query)}` : ''}` +
        `${request.body === undefined ? '' : ` body=${JSON.stringify(request.body)}`}` +
        ` — declare it in the api handlers, e.g. { '${request.method} ${request.path}': data }`,
    );
    this.name = 'UnexpectedRequestError';
  }
}

function isReply(value: unknown): value is FakeReply {
  return typeof value === 'object' && value !== null && REPLY in value;
}

function parseBody(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/**
 * A recording fake server behind a real axios instance (custom adapter), so the real client and its
 * error catalogue run in every test.
 */
export function createFakeApi(handlers: FakeHandlers = {}, defaults: FakeHandlers = {}): FakeApi {
  const table: FakeHandlers = { ...defaults, ...handlers };
  const calls: FakeRequest[] = [];
  const unexpected: FakeRequest[] = [];

  const find = (method: string, path: string) => {
    for (const [key, handler] of Object.entries(table)) {
      const space = key.indexOf(' ');
      if (key.slice(0, space).toUpperCase() !== method) continue;
      const match = matchPath({ path: key.slice(space + 1), end: true }, path);
      if (match) return { handler, params: match.params as Record<string, string> };
    }
    return undefined;
  };

  const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
    const method = (config.method ?? 'get').toUpperCase() as HttpMethod;
    const url = new URL(config.url ?? '/', 'http://fake.local');
    const query: Record<string, unknown> = Object.fromEntries(url.searchParams);
    Object.assign(query, config.params ?? {});
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(config.headers.toJSON())) headers[name] = String(value);
    const requested = axios.getUri({ url: config.url, params: config.params });
    const request: FakeRequest = { method, path: url.pathname, url: requested, params: {}, query, body: parseBody(config.data), headers };
    calls.push(request);

    const found = find(method, url.pathname);
    if (!found) {
      unexpected.push(request);
      const error = new UnexpectedRequestError(request);
      console.error(error.message);
      throw error;
    }
    request.params = found.params;
    const answer = typeof found.handler === 'function' ? await (found.handler as (r: FakeRequest) => unknown)(request) : found.handler;
    const respond = (status: number, data: unknown): AxiosResponse => ({
      data,
      status,
      statusText: String(status),
      headers: { 'content-type': 'application/json' },
      config,
      request: {},
    });
    if (isReply(answer)) {
      if (answer[REPLY] === 'network') throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config, {});
      if (answer[REPLY] === 'http') {
        const response = respond(answer.status, answer.body);
        const code = answer.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST;
        throw new AxiosError(`Request failed with status code ${answer.status}`, code, config, {}, response);
      }
      return respond(200, { code: answer.code, message: answer.message, data: answer.data });
    }
    return respond(200, { code: 1, message: 'success', data: answer ?? null });
  };

  return {
    adapter,
    calls,
    unexpected,
    on: (more) => void Object.assign(table, more),
    callsTo: (key) => {
      const [method, path] = key.split(' ');
      return calls.filter((c) => c.method === method && path !== undefined && matchPath({ path, end: true }, c.path));
    },
  };
}
