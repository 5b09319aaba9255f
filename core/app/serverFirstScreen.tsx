// The first screen of a signed-in visit, rendered by the server (issue 10: a list page's rows painted before the
// console's code has arrived). The build bundles this module for Node (dist/ssr/first-screen.js,
// scripts/prerender-first-screen.ts); the server calls it for `GET /first-screen` with a `get` that runs the caller's
// own GETs through its API, as the caller (server/modules/first-screen). It renders the app's own route tree — layout,
// page, the page's first answers — with the app's components, so there is one rendering of every screen, not a second
// one to keep in step. index.html's boot shows the markup until the app has rendered the same page
// (core/app/firstScreenBoot.ts).
import { createDOMRenderer, RendererProvider, SSRProvider } from '@fluentui/react-components';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import type { Branding } from '../api/account';
import type { EarlyAnswer, EarlyAnswers } from '../api/client';
import { DEFAULT_LNG, isLng } from '../i18n/language';
import { loadLocaleFiles } from '../i18n/resources';
import { mayOpenRoute } from '../navigation/landing';
import { discoverPlugins } from '../plugin/discover';
import type { AnyPlugin } from '../plugin/types';
import { queryClientFor } from '../query/hooks';
import { createMemoryStorage, createSessionStore } from '../session/store';
import { parseUser, type SessionUser } from '../session/stored';
import { CoreProvider } from './context';
import { layoutLoaders } from './layouts';
import { stylesheetOf } from './prerender';
import { AppRoutes } from './routes';
import type { FirstScreenRequest, RenderedFirstScreen } from '../../shared/first-screen.ts';
import { serverDrawn } from './serverDrawn';
import { createCoreServices } from './services';

/** The page at `path` when the server draws it (serverDrawn), with its layout. */
function pageAt(plugins: readonly AnyPlugin[], path: string) {
  for (const plugin of plugins) {
    for (const page of plugin.pages) {
      const layout = page.layout;
      if (layout !== 'bare' && page.path === path && serverDrawn(page)) return { plugin, page, layout };
    }
  }
  return undefined;
}

/** Answers already at hand, served to the app's API client as the entry's early start serves its own. */
function answersOf(answers: ReadonlyMap<string, EarlyAnswer>): EarlyAnswers {
  return {
    take: (url) => {
      const answer = answers.get(url);
      return answer ? Promise.resolve(answer) : undefined;
    },
    peek: (url) => answers.get(url),
  };
}

function envelopeData(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return undefined;
  const { code, data } = body as { code?: unknown; data?: unknown };
  return code === 1 ? data : undefined;
}

/**
 * The markup of `request.path` as the caller's console would render it first, or null when there is none to draw:
 * a path that is not a page with first GETs, a caller who may not open it (the console shows its 403 itself), a
 * session the server no longer knows, or any failure (the console then simply renders as it would have).
 */
export async function renderFirstScreen(request: FirstScreenRequest): Promise<RenderedFirstScreen | null> {
  const plugins = discoverPlugins();
  const found = pageAt(plugins, request.path);
  if (!found) return null;
  const { plugin, page, layout } = found;
  const info = envelopeData(await request.get('/account/info'));
  const user: SessionUser | null = info ? parseUser(JSON.stringify(info)) : null;
  if (!user || !mayOpenRoute({ menuKey: page.menuKey, gate: page.gate }, (key) => user.menus.includes(key))) return null;
  const urls = page.opensWith ?? [];
  const bodies = await Promise.all(urls.map((url) => request.get(url)));
  // A refused GET (code ≠ 1) would render the page's error state: not worth drawing before the console's own.
  if (bodies.some((body) => envelopeData(body) === undefined)) return null;
  const answers = new Map<string, EarlyAnswer>(urls.map((url, index) => [url, { status: 200, data: bodies[index] }]));
  const lng = isLng(request.lng) ? request.lng : DEFAULT_LNG;
  const services = createCoreServices({
    plugins,
    resources: await loadLocaleFiles([lng]),
    languages: [],
    session: createSessionStore({ storage: createMemoryStorage(), initial: { token: request.token, user }, events: null }),
    redirect: () => undefined,
    lng,
    early: answersOf(answers),
  });
  // Everything the page and its layout render with, here before the render: one pass, no placeholder.
  await Promise.all([services.registry.loadPlugin(plugin.id), services.registry.loadIcons(), layoutLoaders[layout]()]);
  // The brand in the menu's logo, as index.html carries it for the console (server/http/static.ts).
  const brandingBody = await request.get('/branding');
  const branding = envelopeData(brandingBody);
  if (branding && typeof branding === 'object') services.branding.set(branding as Branding);
  const renderer = createDOMRenderer();
  try {
    const html = renderToString(
      <RendererProvider renderer={renderer}>
        <SSRProvider>
          <CoreProvider services={services}>
            <MemoryRouter initialEntries={[request.path]}>
              <AppRoutes registry={services.registry} />
            </MemoryRouter>
          </CoreProvider>
        </SSRProvider>
      </RendererProvider>,
    );
    const drawnFrom: Record<string, unknown> = { '/branding': brandingBody };
    for (const [url, answer] of answers) drawnFrom[url] = answer.data;
    return { route: page.path, lng, html, css: stylesheetOf(renderer), answers: drawnFrom };
  } finally {
    // Its queries would hold the answers (and a timer each) for their cache time: nothing here outlives the render.
    queryClientFor(services).clear();
  }
}
