// Build time only (scripts/prerender-first-screen.ts loads it through Vite's SSR): the login page as static HTML and
// the CSS it uses, one per language, so index.html shows a usable form before any script has run (see
// shared/first-screen.ts for how the app takes it over).
import { Checkbox, createDOMRenderer, RendererProvider, renderToStyleElements } from '@fluentui/react-components';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { loadLocaleFiles } from '../i18n/resources';
import { LOGIN_PATH } from '../navigation/landing';
import { childPath } from '../navigation/paths';
import { discoverPlugins } from '../plugin/discover';
import { LANGUAGES } from '../plugin/registry';
import type { Lng } from '../plugin/types';
import { createMemoryStorage, createSessionStore } from '../session/store';
import { CoreProvider } from './context';
import type { RoutePreloads } from '../../shared/first-screen.ts';
import { serverDrawn } from './serverDrawn';
import { createCoreServices } from './services';

export interface PrerenderedScreen {
  path: string;
  lng: Lng;
  /** The plugin whose page it is, and the locale namespaces it renders with (the build preloads their chunks). */
  pluginId: string;
  namespaces: string[];
  /** The page's markup, as the app renders it under <div id="root">. */
  html: string;
  /** Every style rule that markup uses (Griffel's buckets in order, as one stylesheet). */
  css: string;
  /**
   * A checked checkbox as the app renders it only once checked: its root's classes (the checked colours) and what its
   * indicator holds (the tick). The boot gives them to a static page's checkbox as the visitor ticks it. Their rules
   * are in `css`.
   */
  checkmark: { rootClass: string; tick: string };
}

/** The login page as an anonymous visitor sees it first, with the default branding (index.html's boot fills it in). */
export async function prerenderLogin(lng: Lng): Promise<PrerenderedScreen> {
  const plugins = discoverPlugins();
  const services = createCoreServices({
    plugins,
    resources: await loadLocaleFiles([lng]),
    session: createSessionStore({ storage: createMemoryStorage(), events: null }),
    redirect: () => undefined,
    lng,
    languages: [],
  });
  const route = services.registry.matchRoute(LOGIN_PATH);
  if (!route) throw new Error(`prerender: no page is registered at ${LOGIN_PATH}`);
  const module = (await services.registry.loadPlugin(route.pluginId)) as Record<string, ComponentType>;
  const Page = module[route.page];
  if (!Page) throw new Error(`prerender: plugin "${route.pluginId}" has no page "${route.page}"`);
  const renderer = createDOMRenderer();
  const html = renderToString(
    <RendererProvider renderer={renderer}>
      <CoreProvider services={services}>
        <MemoryRouter initialEntries={[LOGIN_PATH]}>
          <Page />
        </MemoryRouter>
      </CoreProvider>
    </RendererProvider>,
  );
  const checkmark = checkmarkOf(
    renderToString(
      <RendererProvider renderer={renderer}>
        <Checkbox checked readOnly label="-" />
      </RendererProvider>,
    ),
  );
  return { path: LOGIN_PATH, lng, pluginId: route.pluginId, namespaces: ['core', route.pluginId], html, css: stylesheetOf(renderer), checkmark };
}

/** A checked Fluent checkbox's root classes and the inside of its indicator (the element after its input, hidden from
 * assistive tech). */
function checkmarkOf(html: string): PrerenderedScreen['checkmark'] {
  const parts = /^<span class="([^"]+)"><input[^>]*type="checkbox"[^>]*\/><div aria-hidden="true"[^>]*>(.+?)<\/div>/.exec(html);
  if (!parts?.[1] || !parts[2]) throw new Error('prerender: a checked checkbox renders no root class or no indicator after its input');
  return { rootClass: parts[1], tick: parts[2] };
}

/** The login page in every language the console speaks. */
export async function prerenderFirstScreens(): Promise<PrerenderedScreen[]> {
  const screens: PrerenderedScreen[] = [];
  for (const lng of LANGUAGES) screens.push(await prerenderLogin(lng));
  return screens;
}

/**
 * Every page and child route as `[path pattern, plugin id, layout, drawn]`, in the order the early start matches
 * them; `drawn`: the server draws its first screen (core/app/serverFirstScreen.tsx, the same rule).
 */
export function routeTable(): RoutePreloads['routes'] {
  const rows: RoutePreloads['routes'] = [];
  for (const plugin of discoverPlugins()) {
    for (const page of plugin.pages) {
      rows.push([page.path, plugin.id, page.layout, serverDrawn(page) ? 1 : 0]);
      for (const child of page.children ?? []) rows.push([childPath(page.path, child.path), plugin.id, page.layout, 0]);
    }
  }
  return rows;
}

/**
 * Griffel's rules as one plain stylesheet, buckets in Griffel's order. Not as Griffel's own <style> elements: the
 * app's renderer would take those as its own (rehydration) and lose its rules when the static page is removed.
 */
export function stylesheetOf(renderer: ReturnType<typeof createDOMRenderer>): string {
  return renderToStyleElements(renderer)
    .map((element) => {
      const props = element.props as { media?: string; dangerouslySetInnerHTML?: { __html?: string } };
      const rules = props.dangerouslySetInnerHTML?.__html ?? '';
      return props.media ? `@media ${props.media}{${rules}}` : rules;
    })
    .join('');
}
