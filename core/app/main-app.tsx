import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HashRouter } from 'react-router-dom';
import { storedLanguage } from '../i18n/createI18n';
import { loadLocaleFiles } from '../i18n/resources';
import { discoverPlugins } from '../plugin/discover';
import { LANGUAGES, validatePluginLoad } from '../plugin/registry';
import { createSessionStore } from '../session/store';
import { CoreProvider } from './context';
import type { EarlyStart, FirstScreen } from './early';
import { layoutLoaders } from './layouts';
import { AppRoutes, apiRedirect, createRouterHandle, RouterBridge } from './routes';
import { type CoreServices, createCoreServices } from './services';

/**
 * Production composition: discovered plugins, locale files, hash router, persisted session. `early` = what the
 * entry started before this chunk arrived (core/app/early.ts): its imports are shared, its GET answers reused.
 */
export async function createApp({ dev = import.meta.env.DEV, early }: { dev?: boolean; early?: EarlyStart } = {}) {
  const lng = early?.lng ?? storedLanguage();
  // Development loads every locale file of both languages so a missing key fails at start. Production starts
  // with the current language's `core` namespace; each plugin's arrives with its first page or a layout's menu
  // (the keys were checked in development and by the tests: tests/meta/registry.test.ts).
  const languages = dev ? LANGUAGES : [];
  const resources = dev ? await loadLocaleFiles(LANGUAGES) : await loadLocaleFiles([lng], ['core']);
  const router = createRouterHandle();
  // Throws at start, naming the plugin, when a descriptor is broken.
  const services = createCoreServices({
    plugins: discoverPlugins(),
    resources,
    languages,
    session: createSessionStore(),
    lng,
    redirect: apiRedirect(router),
    early: early?.answers,
  });
  if (dev) {
    // In development a plugin whose pages module misses a page fails loudly at start, not on first click.
    for (const plugin of services.registry.plugins) {
      validatePluginLoad(plugin).catch((error: unknown) => {
        console.error(error);
        services.bus.emit('notify', { intent: 'error', kind: 'notification', title: plugin.id, message: String(error) });
      });
    }
  }
  const app = (
    <CoreProvider services={services}>
      <HashRouter>
        <RouterBridge handle={router} />
        <AppRoutes registry={services.registry} />
      </HashRouter>
    </CoreProvider>
  );
  return { app, services, router };
}

/**
 * How long the first render waits for the first screen's chunks, strings and icons. index.html's own placeholder
 * shows meanwhile; past this the console renders its placeholder and goes on loading (and failing) as usual.
 */
export const FIRST_RENDER_WAIT_MS = 3000;

/**
 * Settles when what the first screen renders with is here (the early start fetched it all in parallel, core/app/
 * early.ts) or after `waitMs`, whichever comes first; failures are left to the pages' own loading, which shows them.
 * Rendering after it, the layout and the page come in the first pass: no placeholder pass, no second commit.
 */
export async function firstScreenLoaded(services: CoreServices, screen: FirstScreen, waitMs = FIRST_RENDER_WAIT_MS): Promise<void> {
  const loads: Promise<unknown>[] = [services.ensureNamespaces(screen.namespaces)];
  if (screen.pluginId) loads.push(services.registry.loadPlugin(screen.pluginId));
  if (screen.layout && screen.layout !== 'bare') loads.push(layoutLoaders[screen.layout](), services.registry.loadIcons());
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((done) => {
    timer = setTimeout(done, waitMs);
  });
  await Promise.race([Promise.allSettled(loads), waited]);
  clearTimeout(timer);
}

/** Mounts the console in `container` (core/main.tsx, once the entry's early start is under way). */
export async function startApp(container: HTMLElement, early: EarlyStart): Promise<void> {
  const { app, services } = await createApp({ early });
  await firstScreenLoaded(services, early.screen);
  createRoot(container).render(<StrictMode>{app}</StrictMode>);
}
