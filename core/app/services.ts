import type { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import type { AxiosAdapter } from 'axios';
import { type AccountApi, createAccountApi } from '../api/account';
import { type ApiClient, createApiClient, type Redirect } from '../api/client';
import { createEventBus, type EventBus, type NotifyPayload } from '../events/bus';
import { createI18n } from '../i18n/createI18n';
import { loadLocaleFiles } from '../i18n/resources';
import { createPluginRegistry, type PluginRegistry, type ResourceBundle } from '../plugin/registry';
import type { AnyPlugin, Lng } from '../plugin/types';
import { createQueryClient } from '../query/createQueryClient';
import type { SessionStore } from '../session/store';

/** Spec §9: an on-demand chunk that has not arrived after 120 s counts as failed. */
export const CHUNK_TIMEOUT_MS = 120_000;

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

export interface CoreServices {
  registry: PluginRegistry;
  session: SessionStore;
  bus: EventBus;
  notifyBus: NotifyChannel;
  i18n: I18n;
  api: ApiClient;
  account: AccountApi;
  queryClient: QueryClient;
  chunkTimeoutMs: number;
  /** Loads a language's locale files (and plugin inline locales) before switching to it. */
  ensureLanguage(lng: Lng): Promise<void>;
}

export interface CoreServicesOptions {
  plugins: readonly AnyPlugin[];
  resources: ResourceBundle;
  session: SessionStore;
  redirect: Redirect;
  lng?: Lng;
  /** Languages present in `resources` (default both). */
  languages?: readonly Lng[];
  bus?: EventBus;
  adapter?: AxiosAdapter;
  queryRetry?: boolean;
  chunkTimeoutMs?: number;
}

/** The one composition of core services, shared by main.tsx and the test harness. */
export function createCoreServices(options: CoreServicesOptions): CoreServices {
  const registry = createPluginRegistry(options.plugins, options.resources, options.languages);
  const bus = options.bus ?? createEventBus();
  const i18n = createI18n(registry.resources, options.lng);
  const api = createApiClient({
    session: options.session,
    bus,
    t: (key) => i18n.t(key, { ns: 'core' }),
    redirect: options.redirect,
    adapter: options.adapter,
  });
  let lastUser = options.session.getState().user;
  let lastToken = options.session.getState().token;
  options.session.subscribe((state) => {
    if (state.token !== lastToken) {
      lastToken = state.token;
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
  return {
    registry,
    session: options.session,
    bus,
    notifyBus: createNotifyChannel(bus),
    i18n,
    api,
    account: createAccountApi(api),
    queryClient: createQueryClient({ retry: options.queryRetry }),
    chunkTimeoutMs: options.chunkTimeoutMs ?? CHUNK_TIMEOUT_MS,
    async ensureLanguage(lng) {
      if (i18n.hasResourceBundle(lng, 'core')) return;
      const files = await loadLocaleFiles([lng]);
      for (const [ns, resources] of Object.entries(files[lng])) i18n.addResourceBundle(lng, ns, resources, true, false);
      for (const plugin of options.plugins) {
        const inline = plugin.locales?.[lng];
        if (inline) i18n.addResourceBundle(lng, plugin.id, inline, true, true);
      }
    },
  };
}
