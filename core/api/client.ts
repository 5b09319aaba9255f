import type { AxiosAdapter, AxiosResponse } from 'axios';
import type { EventBus } from '../events/bus';
import type { SessionStore } from '../session/store';
import type { Transport } from './transport';

export const SUCCESS_CODE = 1;
/** Body code 100 passes as success (login uses it for "TOTP required"). */
export const PASS_CODE = 100;
/**
 * How long an envelope call may take before it fails as timed out (a server or proxy that never answers would
 * otherwise leave a dialog busy and a list spinning for good). Generous: the slowest envelope calls (a connection
 * test of ten assets through a gateway, a session's SSH start) answer well within it.
 */
export const REQUEST_TIMEOUT_MS = 60_000;

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

export type ApiErrorKind = 'network' | 'http' | 'unauthorized' | 'forbidden' | 'business';

/** Every failure of the client rejects with this; `notified` says the user already saw a toast or was redirected. */
export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly code: number | null,
    readonly status: number | null,
    readonly notified: boolean,
    /** A network error because no answer came within the call's timeout. */
    readonly timedOut = false,
    /** A business error's `data`, e.g. `{ field: 'username' }` naming the input the server refused. */
    readonly data: unknown = undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  /** A business error (body code), a 4xx or a timeout: retrying will not help (soon enough). */
  get isFinal(): boolean {
    // The server had the whole timeout: waiting that long again (three times) would leave the user watching a
    // spinner for minutes; the list's error state offers 重试 instead.
    if (this.kind === 'network') return this.timedOut;
    if (this.kind === 'http') return this.status !== null && this.status >= 400 && this.status < 500;
    return true;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Query = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;

export interface RequestOptions {
  params?: Query;
  headers?: Record<string, string>;
  /** No toast for errors (redirects still happen); the promise still rejects. */
  silent?: boolean;
  signal?: AbortSignal;
  /**
   * Milliseconds before the call fails as timed out; 0 = never (a large download or upload, whose time grows with
   * its size). Default REQUEST_TIMEOUT_MS, and none for a body carrying a file (FormData with a file, a Blob).
   */
  timeout?: number;
}

type BodyMethod = <T = unknown>(url: string, body?: unknown, options?: RequestOptions) => Promise<T>;
type QueryMethod = <T = unknown>(url: string, options?: RequestOptions) => Promise<T>;

export interface ApiClient {
  /** Same-origin base URL ('' = relative paths). */
  readonly baseUrl: string;
  /** ws:// or wss:// + host of the current page, for terminal sockets. */
  readonly wsUrl: string;
  get: QueryMethod;
  delete: QueryMethod;
  post: BodyMethod;
  put: BodyMethod;
  patch: BodyMethod;
  /** Full envelope on success (code 1 or 100); same error handling. */
  request<T = unknown>(method: HttpMethod, url: string, body?: unknown, options?: RequestOptions): Promise<Envelope<T>>;
  /** Header value for URLs a socket or download needs. */
  token(): string | null;
  /**
   * The console's current language, sent as `Accept-Language` on every call (and as `lng` in socket and download URLs,
   * core/ui/download.ts), so the server says its messages in it; null when the client was built without one.
   */
  language(): string | null;
  /**
   * The data of `GET url?params` if the entry already made that call at start (core/app/early.ts), its answer has
   * arrived and succeeded: a screen can render with it at once, with no request and no empty first frame. The answer
   * is then used up (the next call asks the server). Undefined in every other case, including errors: those go
   * through `get` as always.
   */
  earlyData<T>(url: string, params?: Query): T | undefined;
}

export type Redirect = (path: '/login' | '/permission-denied') => void;

/** A GET's answer fetched by the entry at start (core/app/early.ts): what the transport would have received. */
export interface EarlyAnswer {
  status: number;
  data: unknown;
}

export interface EarlyAnswers {
  /** The answer to this GET fetched at start, once, if made with the same token and still fresh; else undefined. */
  take(url: string, token: string | null): Promise<EarlyAnswer | null> | undefined;
  /** The same answer without waiting, if it has already arrived (a failed fetch: never); not taken by reading it. */
  peek(url: string, token: string | null): EarlyAnswer | undefined;
}

export interface ApiClientOptions {
  session: SessionStore;
  bus: EventBus;
  /** Translate a core key (`error.network`); messages come from locales. */
  t: (key: string) => string;
  /** The current language (i18next's), sent to the server with every call; default none. */
  language?: () => string | null;
  /** Defaults to setting `location.hash`. */
  redirect?: Redirect;
  /** Transport override (tests use a custom adapter to answer without a server). */
  adapter?: AxiosAdapter;
  location?: Pick<Location, 'protocol' | 'host'>;
  /** GETs the entry made at start (core/app/early.ts): the first matching call uses that answer instead of asking again. */
  early?: EarlyAnswers;
  /** Default timeout of a call (REQUEST_TIMEOUT_MS). */
  timeout?: number;
}

export function wsUrlFor(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}`;
}

/** axios's encoding of a query value (axios/lib/helpers/buildURL.js), so the URL written here is the one it sends. */
function encodeQueryPart(value: string): string {
  return encodeURIComponent(value).replace(/%3A/gi, ':').replace(/%24/g, '$').replace(/%2C/gi, ',').replace(/%20/g, '+');
}

/**
 * The URL a GET with these params goes to, as the transport writes it (`/users/paging?pageIndex=1&order=`: null
 * and undefined left out, in the params' order); null when a value is a list (axios's `key[]=` form is not
 * reproduced here). What a page declares in `opensWith` is compared with this.
 */
export function requestUrl(url: string, params?: Query): string | null {
  if (!params) return url;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'object') return null;
    parts.push(`${encodeQueryPart(key)}=${encodeQueryPart(String(value))}`);
  }
  if (parts.length === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${parts.join('&')}`;
}

/** An upload: its time grows with the file, so no default timeout applies to it. */
function carriesFile(body: unknown): boolean {
  if (typeof Blob !== 'undefined' && body instanceof Blob) return true;
  if (typeof FormData === 'undefined' || !(body instanceof FormData)) return false;
  for (const value of body.values()) if (typeof value !== 'string') return true;
  return false;
}

/** What a call's deadline rejects with; turned into the localized timeout error. */
class RequestTimeout extends Error {}

/**
 * A deadline for one call: `race` rejects with RequestTimeout after `ms` (0: never) and aborts `signal`, which also
 * follows the caller's own signal. The race, not only the abort, ends the wait: an adapter may ignore the signal.
 */
function deadline(ms: number, outer: AbortSignal | undefined) {
  if (ms <= 0) return { signal: outer, race: <T>(work: Promise<T>) => work, clear: () => undefined };
  const controller = new AbortController();
  const follow = () => controller.abort(outer?.reason);
  if (outer?.aborted) follow();
  else outer?.addEventListener('abort', follow, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new RequestTimeout());
      controller.abort();
    }, ms);
  });
  return {
    signal: controller.signal,
    race: <T>(work: Promise<T>) => Promise.race([work, expired]),
    clear: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', follow);
    },
  };
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number';
}

function messageOf(data: unknown): string | null {
  if (typeof data === 'object' && data !== null) {
    const message = (data as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
  }
  return null;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const { session, bus, t } = options;
  const redirect: Redirect =
    options.redirect ??
    ((path) => {
      window.location.hash = `#${path}`;
    });
  const baseUrl = '';
  const token = () => session.getState().token;
  const language = () => options.language?.() ?? null;
  let transport: Promise<Transport> | null = null;
  const loadTransport = () => {
    transport ??= import('./transport').then(
      (module) => module.createTransport(token, options.adapter, language),
      (error: unknown) => {
        transport = null; // a stale deployment or a dropped connection: the next call tries again
        throw error;
      },
    );
    return transport;
  };
  // Fetched now, in parallel with the first screen, so the first call does not wait for it.
  loadTransport().catch(() => undefined);

  const toast = (message: string, silent: boolean | undefined) => {
    if (!silent) bus.emit('notify', { intent: 'error', message });
  };

  // A timeout is the network failing to the user (retrying may help), in its own words.
  function timedOut(silent: boolean | undefined): never {
    const message = t('error.timeout');
    toast(message, silent);
    throw new ApiError('network', message, null, null, true, true);
  }

  function handleTransportError(error: unknown, isAxiosError: Transport['isAxiosError'], silent: boolean | undefined): never {
    if (error instanceof ApiError) throw error;
    if (error instanceof RequestTimeout) timedOut(silent);
    if (!isAxiosError(error)) throw error; // programming errors (and harness failures) stay as they are
    if (error.code === 'ERR_CANCELED') throw new ApiError('network', error.message, null, null, true);
    const status = error.response?.status ?? null;
    if (status === null) {
      // 'Network Error' and other failures without an answer.
      const message = error.message === 'Network Error' ? t('error.network') : error.message;
      toast(message, silent);
      throw new ApiError('network', message, null, null, true);
    }
    if (status === 401) {
      bus.emit('session:expired', { reason: 'http-401' });
      redirect('/login');
      throw new ApiError('unauthorized', messageOf(error.response?.data) ?? error.message, null, 401, true);
    }
    const message = messageOf(error.response?.data) ?? error.message;
    toast(message, silent);
    throw new ApiError('http', message, isEnvelope(error.response?.data) ? error.response.data.code : null, status, true);
  }

  function handleBody<T>(response: Pick<AxiosResponse<unknown>, 'data' | 'status'>, url: string, silent: boolean | undefined): Envelope<T> {
    const body = response.data;
    // Non-envelope answers (raw file text) pass through untouched, as in 1.3.9.
    if (!isEnvelope(body)) return { code: SUCCESS_CODE, message: '', data: body as T };
    if (body.code === SUCCESS_CODE || body.code === PASS_CODE) return body as Envelope<T>;
    const message = typeof body.message === 'string' ? body.message : '';
    if (body.code === 401) {
      bus.emit('session:expired', { reason: 'body-401' });
      redirect('/login');
      throw new ApiError('unauthorized', message, 401, response.status, true);
    }
    if (body.code === 403) {
      bus.emit('permission:denied', { url });
      redirect('/permission-denied');
      throw new ApiError('forbidden', message, 403, response.status, true);
    }
    toast(message, silent);
    throw new ApiError('business', message, body.code, response.status, !silent, false, body.data);
  }

  async function request<T>(method: HttpMethod, url: string, body?: unknown, opts: RequestOptions = {}): Promise<Envelope<T>> {
    const limit = deadline(opts.timeout ?? (carriesFile(body) ? 0 : (options.timeout ?? REQUEST_TIMEOUT_MS)), opts.signal);
    try {
      // A GET the entry already made at start (the same URL, query included): its answer goes through the same
      // envelope handling.
      const earlyUrl = method === 'GET' && !opts.headers && options.early ? requestUrl(url, opts.params) : null;
      const early = earlyUrl !== null ? options.early?.take(earlyUrl, token()) : undefined;
      let answer: EarlyAnswer | null = null;
      try {
        answer = early ? await limit.race(early) : null;
      } catch (error) {
        if (error instanceof RequestTimeout) timedOut(opts.silent);
        throw error;
      }
      if (answer) return handleBody<T>(answer, url, opts.silent);
      let loaded: Transport;
      try {
        loaded = await loadTransport();
      } catch {
        // The transport chunk did not arrive: to the user this is the network failing.
        const message = t('error.network');
        toast(message, opts.silent);
        throw new ApiError('network', message, null, null, true);
      }
      let response: AxiosResponse<unknown>;
      try {
        response = await limit.race(
          loaded.http.request<unknown>({
            method,
            url,
            data: body,
            params: opts.params,
            headers: opts.headers,
            signal: limit.signal,
          }),
        );
      } catch (error) {
        handleTransportError(error, loaded.isAxiosError, opts.silent);
      }
      return handleBody<T>(response, url, opts.silent);
    } finally {
      limit.clear();
    }
  }

  const data =
    (method: HttpMethod): BodyMethod =>
    async <T>(url: string, body?: unknown, opts?: RequestOptions) =>
      (await request<T>(method, url, body, opts)).data;
  const dataNoBody =
    (method: HttpMethod): QueryMethod =>
    async <T>(url: string, opts?: RequestOptions) =>
      (await request<T>(method, url, undefined, opts)).data;

  return {
    baseUrl,
    // Read on use: the client is also built where there is no window (the build's prerender, core/app/prerender.tsx).
    get wsUrl() {
      return wsUrlFor(options.location ?? window.location);
    },
    get: dataNoBody('GET'),
    delete: dataNoBody('DELETE'),
    post: data('POST'),
    put: data('PUT'),
    patch: data('PATCH'),
    request,
    token,
    language,
    earlyData<T>(url: string, params?: Query): T | undefined {
      const earlyUrl = options.early ? requestUrl(url, params) : null;
      if (earlyUrl === null) return undefined;
      const answer = options.early?.peek(earlyUrl, token());
      if (!answer || !isEnvelope(answer.data) || answer.data.code !== SUCCESS_CODE) return undefined;
      void options.early?.take(earlyUrl, token());
      return answer.data.data as T;
    },
  };
}
