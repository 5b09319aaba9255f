import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HashRouter } from 'react-router-dom';
import { storedLanguage } from '../i18n/createI18n';
import { loadLocaleFiles } from '../i18n/resources';
import { discoverPlugins } from '../plugin/discover';
import { LANGUAGES, validatePluginLoad } from '../plugin/registry';
import { createSessionStore } from '../session/store';
import { CoreProvider } from './context';
import type { EarlyStart } from './early';
import { AppRoutes, apiRedirect, createRouterHandle, RouterBridge } from './routes';
import { createCoreServices } from './services';

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
  // The first page's chunk is already on its way (the entry's early start): known to the registry as soon as it
  // arrives, so the page renders in the layout's first pass (PluginPage's `ready`). A failure shows with the page.
  if (early?.screen.pluginId) services.registry.loadPlugin(early.screen.pluginId).catch(() => undefined);
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

/** Mounts the console in `container` (core/main.tsx, once the entry's early start is under way). */
export async function startApp(container: HTMLElement, early: EarlyStart): Promise<void> {
  const { app } = await createApp({ early });
  createRoot(container).render(<StrictMode>{app}</StrictMode>);
}
