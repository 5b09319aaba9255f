import type { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import type { AxiosAdapter } from 'axios';
import { type AccountApi, type Branding, createAccountApi } from '../api/account';
import { type ApiClient, createApiClient, type EarlyAnswers, type Redirect } from '../api/client';
import { createEventBus, type EventBus, type NotifyPayload } from '../events/bus';
import { createI18n, DEFAULT_LNG, isLng } from '../i18n/createI18n';
import { loadLocaleBundle, loadLocaleFiles } from '../i18n/resources';
import { createPluginRegistry, LANGUAGES, type PluginRegistry, type ResourceBundle } from '../plugin/registry';
import type { AnyPlugin, Lng, LocaleResources } from '../plugin/types';
import type { SessionStore } from '../session/store';
import { dataKeyT } from '../i18n/types';

/** Spec §9: an on-demand chunk that has not arrived after 120 s counts as failed. */
const CHUNK_TIMEOUT_MS = 120_000;

/** The `notify` side of the bus for the toast host, replaying what was emitted before the host subscribed. */
export interface NotifyChannel {
  on(type: 'notify', handler: (event: NotifyPayload) => void): void;
  off(type: 'notify', handler: (event: NotifyPayload) => void): void;
}

function createNotifyChannel(bus: EventBus): NotifyChannel {
  let early: NotifyPayload[] | null = [];
  const record = (event: NotifyPayload) => early?.push(event);
  bus.on('notify', record);
  return {
    on(type, handler) {
      bus.on(type, handler);
      if (early) {
        const pending = early;
        early = null;
        bus.off('notify', record);
        for (const event of pending) handler(event);
      }
    },
    off: (type, handler) => bus.off(type, handler),
  };
}

/** GET /branding, fetched once on first use; a tiny store instead of a query so the entry has no TanStack. */
export interface BrandingSource {
  get(): Branding | undefined;
  subscribe(listener: () => void): () => void;
  /** Starts the fetch unless done or running. */
  load(): void;
  /** Fetches again (after an admin changed the branding). */
  refresh(): void;
  set(value: Branding): void;
}

/** Key of the branding in the query cache: `setQueryData` / `invalidateQueries` on it reach the branding too. */
export const BRANDING_QUERY_KEY = ['core', 'branding'] as const;

function createBrandingSource(fetch: () => Promise<Branding>): BrandingSource {
  let value: Branding | undefined;
  let state: 'idle' | 'loading' | 'done' = 'idle';
  const listeners = new Set<() => void>();
  const set = (next: Branding) => {
    value = next;
    state = 'done';
    for (const listener of listeners) listener();
  };
  const refresh = () => {
    state = 'loading';
    void fetch().then(set);
  };
  return {
    get: () => value,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    load() {
      if (state === 'idle') refresh();
    },
    refresh,
    set,
  };
}

/** Started after the first screen is shown, or by the first `notify`: keeps Toaster/Dialog code off the start. */
export interface OverlaysGate {
  readonly open: boolean;
  request(): void;
  subscribe(listener: () => void): () => void;
}

function createOverlaysGate(): OverlaysGate {
  let open = false;
  const listeners = new Set<() => void>();
  return {
    get open() {
      return open;
    },
    request() {
      if (open) return;
      open = true;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export interface CoreServices {
  registry: PluginRegistry;
  session: SessionStore;
  bus: EventBus;
  notifyBus: NotifyChannel;
  i18n: I18n;
  api: ApiClient;
  account: AccountApi;
  branding: BrandingSource;
  /** The toast/confirm overlays chunk: requested after the first screen or by the first toast. */
  overlays: OverlaysGate;
  /** `false` in tests: queries fail at once. */
  queryRetry: boolean;
  /** Called once when core/query creates this console's client (lazily, with the first chunk using queries). */
  onQueryClient(client: QueryClient): void;
  chunkTimeoutMs: number;
  /** Reloads the page (after a deploy replaced the running build's chunks). */
  reloadPage(): void;
  /** Loads a language's locale files (the namespaces already in use, and plugin inline locales) before switching to it. */
  ensureLanguage(lng: Lng): Promise<void>;
  /** Loads the current language's files of these namespaces (`core` or plugin ids) unless already loaded. */
  ensureNamespaces(namespaces: readonly string[]): Promise<void>;
  /** The current language's files of these namespaces are loaded (what `ensureNamespaces` would not have to fetch). */
  namespacesLoaded(namespaces: readonly string[]): boolean;
}

export interface CoreServicesOptions {
  plugins: readonly AnyPlugin[];
  resources: ResourceBundle;
  session: SessionStore;
  redirect: Redirect;
  lng?: Lng;
  /** Languages whose plugin label/title keys registration checks (default both; production none, see main-app). */
  languages?: readonly Lng[];
  bus?: EventBus;
  adapter?: AxiosAdapter;
  /** Answers to GETs the entry made at start (production; see core/app/early.ts). */
  early?: EarlyAnswers;
  queryRetry?: boolean;
  chunkTimeoutMs?: number;
  /** Default: `window.location.reload()`; tests record it. */
  reloadPage?: () => void;
}

function isBrandingKey(key: readonly unknown[]): boolean {
  return key.length === BRANDING_QUERY_KEY.length && key.every((part, i) => part === BRANDING_QUERY_KEY[i]);
}

/** The one composition of core services, shared by main.tsx and the test harness. */
export function createCoreServices(options: CoreServicesOptions): CoreServices {
  const registry = createPluginRegistry(options.plugins, options.resources, options.languages);
  const bus = options.bus ?? createEventBus();
  const i18n = createI18n(registry.resources, options.lng);
  const api = createApiClient({
    session: options.session,
    bus,
    t: (key) => dataKeyT(i18n.t.bind(i18n))(key, { ns: 'core' }),
    language: () => i18n.language ?? null,
    redirect: options.redirect,
    adapter: options.adapter,
    early: options.early,
  });
  // Created lazily by core/query with the first chunk that uses queries (see onQueryClient).
  let queryClient: QueryClient | null = null;
  let lastUser = options.session.getState().user;
  let lastToken = options.session.getState().token;
  options.session.subscribe((state) => {
    if (state.token !== lastToken) {
      lastToken = state.token;
      // A new identity must not see the previous one's cached data (the branding is not per user).
      queryClient?.removeQueries({ predicate: (query) => !isBrandingKey(query.queryKey) });
      // A new sign-in starts with the menu groups closed, as 1.3.9 does at login.
      if (state.token !== null) {
        try {
          window.sessionStorage.removeItem('openKeys');
          window.sessionStorage.removeItem('current');
        } catch {
          // sessionStorage unavailable: nothing to reset
        }
      }
    }
    if (state.user !== lastUser) {
      lastUser = state.user;
      bus.emit('session:changed', { user: state.user });
    }
  });
  const locales = createLocaleTracker(i18n, options.plugins, options.resources);
  const account = createAccountApi(api);
  const branding = createBrandingSource(account.branding);
  const overlays = createOverlaysGate();
  // A toast wanted before the overlays started: start them now (the channel replays it).
  bus.on('notify', () => overlays.request());
  return {
    registry,
    session: options.session,
    bus,
    notifyBus: createNotifyChannel(bus),
    i18n,
    api,
    account,
    branding,
    overlays,
    queryRetry: options.queryRetry !== false,
    onQueryClient(client) {
      queryClient = client;
      client.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || !isBrandingKey(event.query.queryKey)) return;
        if (event.action.type === 'success' && event.query.state.data) branding.set(event.query.state.data as Branding);
        if (event.action.type === 'invalidate') branding.refresh();
      });
    },
    chunkTimeoutMs: options.chunkTimeoutMs ?? CHUNK_TIMEOUT_MS,
    reloadPage: options.reloadPage ?? (() => window.location.reload()),
    ensureLanguage: (lng) => locales.ensure(lng, locales.inUse()),
    ensureNamespaces: (namespaces) => locales.ensure(currentLng(i18n), namespaces),
    namespacesLoaded: (namespaces) => locales.has(currentLng(i18n), namespaces),
  };
}

function currentLng(i18n: I18n): Lng {
  return isLng(i18n.language) ? i18n.language : DEFAULT_LNG;
}

/** From this many missing namespaces on, the language's bundle is fetched instead of one file each. */
const BUNDLE_FROM = 3;

/**
 * Which locale files are in the i18n instance, and fetching the missing ones. Plugin inline locales are laid
 * over a file when it arrives, so an inline key keeps winning as it does at start.
 */
function createLocaleTracker(i18n: I18n, plugins: readonly AnyPlugin[], initial: ResourceBundle) {
  const loaded = new Set<string>();
  const pending = new Map<string, Promise<void>>();
  for (const lng of LANGUAGES) for (const ns of Object.keys(initial[lng])) loaded.add(`${lng}/${ns}`);
  const inline = (lng: Lng, ns: string) => plugins.find((plugin) => plugin.id === ns)?.locales?.[lng];
  const add = (lng: Lng, ns: string, file: LocaleResources | undefined) => {
    if (file) i18n.addResourceBundle(lng, ns, file, true, false);
    const extra = inline(lng, ns);
    if (extra) i18n.addResourceBundle(lng, ns, extra, true, true);
    loaded.add(`${lng}/${ns}`);
  };
  const fetchOne = async (lng: Lng, ns: string) => {
    const files = await loadLocaleFiles([lng], [ns]);
    add(lng, ns, files[lng][ns]);
  };
  // Many namespaces at once (a layout's menu): the language's bundle, one request.
  const fetchMany = async (lng: Lng, namespaces: readonly string[]) => {
    const files = await loadLocaleBundle(lng);
    for (const ns of namespaces) add(lng, ns, files[ns]);
  };
  return {
    /** Namespaces loaded in any language: what a language switch must bring along. */
    inUse(): string[] {
      return [...new Set([...loaded].map((key) => key.slice(key.indexOf('/') + 1)))];
    },
    has(lng: Lng, namespaces: readonly string[]): boolean {
      return ['core', ...namespaces].every((ns) => loaded.has(`${lng}/${ns}`));
    },
    async ensure(lng: Lng, namespaces: readonly string[]): Promise<void> {
      const wanted = [...new Set(['core', ...namespaces])].filter((ns) => !loaded.has(`${lng}/${ns}`));
      const missing = wanted.filter((ns) => !pending.has(`${lng}/${ns}`));
      if (missing.length >= BUNDLE_FROM) {
        const running = fetchMany(lng, missing).finally(() => {
          for (const ns of missing) pending.delete(`${lng}/${ns}`);
        });
        for (const ns of missing) pending.set(`${lng}/${ns}`, running);
      } else {
        for (const ns of missing) {
          const key = `${lng}/${ns}`;
          pending.set(
            key,
            fetchOne(lng, ns).finally(() => pending.delete(key)),
          );
        }
      }
      await Promise.all(wanted.map((ns) => pending.get(`${lng}/${ns}`)));
    },
  };
}
