import { HashRouter } from 'react-router-dom';
import { storedLanguage } from '../i18n/createI18n';
import { loadLocaleFiles } from '../i18n/resources';
import { discoverPlugins } from '../plugin/discover';
import { LANGUAGES, validatePluginLoad } from '../plugin/registry';
import { createSessionStore } from '../session/store';
import { CoreProvider } from './context';
import { AppRoutes, createRouterHandle, RouterBridge } from './routes';
import { createCoreServices } from './services';

/** Production composition: discovered plugins, locale files, hash router, persisted session. */
export async function createApp() {
  const lng = storedLanguage();
  // Development loads both languages so a missing key fails at start; production only the current one.
  const languages = import.meta.env.DEV ? LANGUAGES : [lng];
  const resources = await loadLocaleFiles(languages);
  const router = createRouterHandle();
  // Throws at start, naming the plugin, when a descriptor is broken.
  const services = createCoreServices({
    plugins: discoverPlugins(),
    resources,
    languages,
    session: createSessionStore(),
    lng,
    redirect: (path) => router.navigate(path),
  });
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
      <HashRouter>
        <RouterBridge handle={router} />
        <AppRoutes registry={services.registry} />
      </HashRouter>
    </CoreProvider>
  );
  return { app, services, router };
}
