import { createHashRouter, RouterProvider } from 'react-router-dom';
import { storedLanguage } from '../i18n/createI18n';
import { loadLocaleFiles } from '../i18n/resources';
import { discoverPlugins } from '../plugin/discover';
import { validatePluginLoad } from '../plugin/registry';
import { createSessionStore } from '../session/store';
import { CoreProvider } from './context';
import { buildRoutes } from './routes';
import { createCoreServices } from './services';

/** Production composition: discovered plugins, locale files, hash router, persisted session. */
export function createApp() {
  let router: ReturnType<typeof createHashRouter> | undefined;
  // Throws at start, naming the plugin, when a descriptor is broken.
  const services = createCoreServices({
    plugins: discoverPlugins(),
    resources: loadLocaleFiles(),
    session: createSessionStore(),
    lng: storedLanguage(),
    redirect: (path) => void router?.navigate(path),
  });
  router = createHashRouter(buildRoutes(services.registry));
  if (import.meta.env.DEV) {
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
      <RouterProvider router={router} />
    </CoreProvider>
  );
  return { app, services, router };
}
