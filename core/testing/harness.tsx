// Test harness for plugins and core: the real registry, router, layouts and providers with fresh services.
import { render, type RenderResult, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { onTestFinished } from 'vitest';
import { CoreProvider } from '../app/context';
import { fetchEarly } from '../app/early';
import { AppRoutes, apiRedirect, createRouterHandle, RouterBridge, type RouterHandle } from '../app/routes';
import { type CoreServices, createCoreServices } from '../app/services';
import { type CoreEvents, createEventBus } from '../events/bus';
import { loadLocaleFiles } from '../i18n/resources';
import { buildCatalogue } from '../../shared/manifest.ts';
import { SECOND_PASS_PENDING } from '../ui/SecondPass';
import { createPluginRegistry, type ResourceBundle, validatePluginLoad } from '../plugin/registry';
import type { AnyPlugin, Lng } from '../plugin/types';
import { createMemoryStorage, createSessionStore, type SessionStore, type SessionUser } from '../session/store';
import { createFakeApi, type FakeApi, type FakeHandlers } from './fakeApi';


export interface TestSessionInit {
  token?: string | null;
  /** Partial user; `null` = signed out. */
  user?: Partial<SessionUser> | null;
}

/** A session store over in-memory storage (no leakage between tests). */
export function createTestSession(init: TestSessionInit = {}, defaultMenus: string[] = []): SessionStore {
  const user: SessionUser | null =
    init.user === null ? null : { type: 'admin', nickname: 'Tester', username: 'tester', menus: defaultMenus, ...init.user };
  return createSessionStore({
    storage: createMemoryStorage(),
    initial: { token: init.token === undefined ? 'test-token' : init.token, user },
  });
}

export interface RecordedEvent<K extends keyof CoreEvents = keyof CoreEvents> {
  type: K;
  payload: CoreEvents[K];
}

export interface HarnessOptions {
  /** Initial route; for renderPlugin defaults to the plugin's first page path. */
  route?: string;
  /** Partial session, or a ready store. Default: an admin holding every key the rendered plugins' manifests declare. */
  session?: TestSessionInit | SessionStore;
  /** Handlers keyed `'GET /path'`, or a FakeApi. GET /branding is answered by default. */
  api?: FakeHandlers | FakeApi;
  extraPlugins?: readonly AnyPlugin[];
  lng?: Lng;
  /** Chunk time-out in ms (default 120 000). */
  chunkTimeoutMs?: number;
  /** Wait until the placeholder `正在努力加载中...` is gone (default true). */
  waitForLoad?: boolean;
  /** Extra locale resources (namespaces) by language. */
  resources?: Partial<ResourceBundle>;
  /**
   * GETs "the entry made at start" (a page's `opensWith`), by URL → the body the server answered: they go through
   * core's real early-answer path (core/app/early.ts `fetchEarly`, with the session's token), so a page that takes
   * them makes no request for them.
   */
  early?: Record<string, unknown>;
}

export interface HarnessResult extends RenderResult {
  user: ReturnType<typeof userEvent.setup>;
  /** `navigate(to)` from outside the tree, and the current `location`. */
  router: RouterHandle;
  /** Current router location. */
  location(): { pathname: string; search: string; hash: string };
  api: FakeApi;
  /** Every bus event, in order. */
  events: RecordedEvent[];
  /** Events of one type. */
  eventsOf<K extends keyof CoreEvents>(type: K): CoreEvents[K][];
  session: SessionStore;
  services: CoreServices;
  /** How many times the console asked to reload the page. */
  reloads(): number;
}

const DEFAULT_HANDLERS: FakeHandlers = { 'GET /branding': { name: 'Jumpgate', description: '', copyright: 'Copyright © Jumpgate' } };

function isStore(value: unknown): value is SessionStore {
  return typeof value === 'object' && value !== null && 'getState' in value && 'subscribe' in value;
}

function isFakeApi(value: unknown): value is FakeApi {
  return typeof value === 'object' && value !== null && 'adapter' in value && 'calls' in value;
}

async function mergeResources(extra: Partial<ResourceBundle> | undefined): Promise<ResourceBundle> {
  const base = await loadLocaleFiles();
  return {
    'zh-CN': { ...base['zh-CN'], ...extra?.['zh-CN'] },
    'en-US': { ...base['en-US'], ...extra?.['en-US'] },
  };
}

/** Every key of the plugins' manifests; builds their catalogue, so a broken manifest fails the test, naming its plugin. */
function defaultKeys(plugins: readonly AnyPlugin[]): string[] {
  return [...buildCatalogue(plugins.flatMap((p) => (p.manifest ? [p.manifest] : []))).keys];
}

function earlyAnswers(bodies: Record<string, unknown>, token: string | null) {
  return fetchEarly(Object.keys(bodies), token, async (url) =>
    new Response(JSON.stringify(bodies[url]), { headers: { 'content-type': 'application/json' } }),
  );
}

async function mount(plugins: readonly AnyPlugin[], routes: 'registry' | ReactElement, options: HarnessOptions, defaultRoute: string): Promise<HarnessResult> {
  // The default session holds every key the rendered plugins' manifests declare (pages and actions), as the server
  // gives the super admin.
  const menus = defaultKeys(plugins);
  const session = isStore(options.session) ? options.session : createTestSession(options.session ?? {}, menus);
  const api = isFakeApi(options.api) ? options.api : createFakeApi(options.api ?? {}, DEFAULT_HANDLERS);
  const bus = createEventBus();
  const events: RecordedEvent[] = [];
  bus.on('*', (type, payload) => events.push({ type, payload } as RecordedEvent));

  const router = createRouterHandle();
  let reloads = 0;
  const services = createCoreServices({
    plugins,
    resources: await mergeResources(options.resources),
    session,
    bus,
    lng: options.lng ?? 'zh-CN',
    adapter: api.adapter,
    queryRetry: false,
    chunkTimeoutMs: options.chunkTimeoutMs,
    redirect: apiRedirect(router),
    early: options.early ? earlyAnswers(options.early, session.getState().token) : undefined,
    reloadPage: () => {
      reloads += 1;
    },
  });

  // Production starts the toast/confirm overlays after the first screen; tests want them at once (no race with confirm()).
  services.overlays.request();

  onTestFinished(() => {
    if (api.unexpected.length > 0) {
      throw new Error(`The test made ${api.unexpected.length} unexpected request(s):\n${api.unexpected.map((r) => `  ${r.method} ${r.path}`).join('\n')}`);
    }
  });

  const result = render(
    <CoreProvider services={services}>
      <MemoryRouter initialEntries={[options.route ?? defaultRoute]}>
        <RouterBridge handle={router} />
        {routes === 'registry' ? <AppRoutes registry={services.registry} /> : routes}
      </MemoryRouter>
    </CoreProvider>,
  );
  const harness: HarnessResult = {
    ...result,
    user: userEvent.setup(),
    router,
    location: () => {
      if (!router.location) throw new Error('the router has not rendered yet');
      return router.location;
    },
    api,
    events,
    eventsOf: <K extends keyof CoreEvents>(type: K) => events.filter((e) => e.type === type).map((e) => e.payload as CoreEvents[K]),
    session,
    services,
    reloads: () => reloads,
  };
  if (options.waitForLoad === false) return harness;
  const loading = services.i18n.t('app.loading', { ns: 'core' });
  return waitFor(() => {
    if (result.queryAllByText(loading).length > 0) throw new Error(`still showing "${loading}"`);
    // The layout's menu, header and footer and a table's pager come in the pass after the page (core/ui/SecondPass).
    if (result.container.querySelector(`[${SECOND_PASS_PENDING}]`)) throw new Error('a second pass is still to come');
  }).then(
    () => harness,
    () => harness, // a page that keeps loading is for the test to judge
  );
}

/**
 * Renders a plugin inside the real console (registry, router, layouts, providers) at `route`.
 * Any request not declared in `api` fails the test.
 */
export async function renderPlugin(plugin: AnyPlugin, options: HarnessOptions = {}): Promise<HarnessResult> {
  return mount([plugin, ...(options.extraPlugins ?? [])], 'registry', options, plugin.pages[0]?.path ?? '/');
}

/** Renders the whole console with the given plugins (none is fine), e.g. to test core screens. */
export async function renderConsole(plugins: readonly AnyPlugin[], options: HarnessOptions = {}): Promise<HarnessResult> {
  return mount(plugins, 'registry', options, '/');
}

/** The same providers (and a memory router) around a leaf component. */
export async function renderWithProviders(ui: ReactElement, options: HarnessOptions & { plugins?: readonly AnyPlugin[] } = {}): Promise<HarnessResult> {
  return mount(options.plugins ?? [], ui, { waitForLoad: false, ...options }, '/');
}

/** The descriptor contract for a plugin's own test: a valid manifest, registers with the real locales (beside `others`), and load() exports every page. */
export async function expectValidPlugin(plugin: AnyPlugin, others: readonly AnyPlugin[] = []): Promise<void> {
  if (plugin.manifest) buildCatalogue([plugin.manifest]);
  // `others`: plugins registered beside it, e.g. the one declaring the keys its pages are gated by.
  createPluginRegistry([plugin, ...others], await loadLocaleFiles());
  await validatePluginLoad(plugin);
}
