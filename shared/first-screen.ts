// The prerendered first screen (issue 10: a login form usable before any script has run). The build renders the
// login page to static HTML, one <template> per language (core/app/prerender.tsx, scripts/prerender-first-screen.ts);
// index.html's inline boot (core/app/firstScreenBoot.ts) shows the right one at once when no one is signed in, and
// queues a submit made before the app is up. When the app has rendered a page, core announces it here and the boot
// hands over: the values typed so far, the focus and a queued submit move to the live form, and the static page goes.
// The hand-over's code travels in index.html with the page it hands over, not in the console's chunks. A signed-in
// visit to a list page gets the same treatment from the server: it draws the page with the app's own components and
// the caller's data (core/app/serverFirstScreen.tsx, GET /first-screen) and the boot shows that until the app's page
// is in. No library here: the entry imports this module.

/** The host's id and core's event, on their own: the entry needs only the event (the object below stays out of it). */
const HOST_ID = 'first-screen';
const SHOWN_EVENT = 'jumpgate:screen-shown';

/** Ids and attributes shared by the build, the boot, the server (server/http/static.ts) and core. */
export const FIRST_SCREEN = {
  /**
   * The element the boot fills with a language's template; `data-path`, `data-lng` say what it shows. The build
   * writes the console's entry in its `data-entry` and the app chunks in `data-preload`: the boot starts them; and
   * in `data-routes` (RoutePreloads, JSON) the chunks of each route's first screen, which a signed-in visit adds.
   */
  host: HOST_ID,
  /** `<template id="first-screen-<lng>">` */
  templatePrefix: 'first-screen-',
  /** `<template>`: a ticked checkbox's indicator, which the app renders only when checked (core/app/prerender.tsx). */
  checkmark: 'first-screen-checkmark',
  /** The prerendered page's own stylesheet (removed with it: the app's styles are its own). */
  style: 'first-screen-css',
  /** `<script type="application/json">`: the server's answer to GET /branding, written into index.html. */
  branding: 'jumpgate-branding',
  /** The inline boot script (the server allows it by its hash). */
  boot: 'jumpgate-boot',
  /** On an element of the page: filled by the boot with that field of the branding (`name`, `description`). */
  brandAttr: 'data-brand',
  /** On the host's form once submitted before the hand-over. */
  submittedAttr: 'data-submitted',
  /** The event core dispatches on `document` once it has rendered a page (detail: ScreenShown). */
  shownEvent: SHOWN_EVENT,
} as const;

/**
 * What a signed-in first visit fetches from the start, by route: the build writes it on the host (`data-routes`),
 * the boot preloads the row of the URL's route with the console's own chunks, before the entry has even run (its
 * early start would ask for the same, core/app/early.ts, one round trip later).
 */
export interface RoutePreloads {
  /** Every file named below, once (`/static/…`). */
  files: string[];
  /** Per layout, its chunks and the menu icons': indexes into `files`. */
  layouts: Record<string, number[]>;
  /** Per language, what every screen starts with: core's strings and the API transport. */
  start: Record<string, number[]>;
  /** Per language, its locale bundle (a layout's menu names every plugin's pages). */
  bundles: Record<string, number[]>;
  /** Per plugin, its pages chunk and what that imports. */
  plugins: Record<string, number[]>;
  /**
   * `[path pattern, plugin id, layout, drawn]` of every page and child route; `drawn` = 1 for a page the server draws
   * first for a signed-in visit (GET /first-screen: a layout page that declares the GETs it opens with), else 0.
   */
  routes: [string, string, string, 0 | 1][];
}

/** The server's render of a signed-in first screen (core/app/serverFirstScreen.tsx), as the build writes it beside the
 * console (`<dist>/ssr/first-screen.js`) and the server loads it (server/modules/first-screen). */
export const SERVER_RENDER = { dir: 'ssr', file: 'first-screen.js' } as const;

/** What the server asks its render for: the URL's path, the visitor's language, and the GETs it may make as the caller. */
export interface FirstScreenRequest {
  /** The hash route's path (`/user`), no query. */
  path: string;
  lng: string;
  /** The caller's token: the session the markup is rendered for (its menus, its name in the header). */
  token: string;
  /** The envelope body of a GET through the API with the caller's token. */
  get(url: string): Promise<unknown>;
}

/** A first screen drawn by the server: the answer of `GET /first-screen`, shown by the boot until the app renders. */
export interface RenderedFirstScreen {
  /** The route pattern the markup shows (`/user`): the app announces the same when it renders that page. */
  route: string;
  lng: string;
  /** The markup the app renders under `<div id="root">`, and every style rule it uses. */
  html: string;
  css: string;
  /**
   * The envelope bodies of the GETs it was drawn from, by URL (`/branding`, the page's `opensWith`): the app's early
   * start takes them instead of asking again (drawnAnswers, core/app/early.ts).
   */
  answers: Record<string, unknown>;
}

/**
 * Where the boot leaves the drawing's answers for the entry (a property of `window`): the caller's token and the
 * bodies by URL. Only answers for the token the entry starts with are used.
 */
export const DRAWN_ANSWERS_KEY = '__jumpgateDrawnAnswers';

export interface DrawnAnswers {
  token: string;
  bodies: Record<string, unknown>;
}

/** The module the build writes at SERVER_RENDER. */
export interface ServerRender {
  renderFirstScreen(request: FirstScreenRequest): Promise<RenderedFirstScreen | null>;
}

/**
 * How long the server's drawing of a signed-in page may show at most, from the boot's start. It is a picture, inert:
 * when the console shows something else than the page drawn without saying so (a path it redirects, a failure it
 * did not announce), the picture must not stay over the live console. The console's own page comes within a second on
 * these machines even at 4× CPU slowdown (docs/PERFORMANCE.md), so a drawing still there at this point is stale.
 */
export const DRAWING_DEADLINE_MS = 4000;

/** While a static page shows, the app's root (its loading text, then the app itself) stays out of sight. */
export const HIDE_ROOT_RULE = `#${HOST_ID}:not([hidden])~#root{display:none}`;

/** Where the build leaves room for the branding in index.html (server/http/static.ts writes it there). Kept out of
 * FIRST_SCREEN: the boot carries that object, and the marker must occur once in the page. */
export const BRANDING_MARKER = '<!--jumpgate:branding-->';

/** An announcement's detail: core fills `path`, the boot answers in `adopted` and `language`. */
export interface ScreenShown {
  /** The app's page now in the document (null: something else, e.g. an error or a failed start). */
  path: string | null;
  /** Whether the static page was that page (its state moved over). */
  adopted: boolean;
  /** The language the static page showed (the visitor may have switched it there): the app follows it. */
  language: string | null;
}

/**
 * Tells index.html's boot that the app has put `path` in the document (null: anything else). When the static first
 * screen shows that page its state moves to the app's page; in every case it goes. Without a boot (a signed-in visit,
 * the dev server) nothing happens. Synchronous: call it once the page's DOM is committed, before the paint.
 */
export function announceScreen(path: string | null, doc: Document = document): ScreenShown {
  const detail: ScreenShown = { path, adopted: false, language: null };
  doc.dispatchEvent(new CustomEvent<ScreenShown>(SHOWN_EVENT, { detail }));
  return detail;
}
