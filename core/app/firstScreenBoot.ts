// index.html's inline boot (built from firstScreenBoot.entry.ts into one small script by
// scripts/prerender-first-screen.ts; the server allows it by its hash). It runs while the page parses, before any
// chunk: with no one signed in (the app will show the login whatever the URL, core/app/routes.tsx) it shows the
// prerendered login page of the stored language, fills in the branding the server wrote into the page, switches
// language on the page's own buttons and queues a submit made before the app is up. Signed in, on a page the server
// draws (a list, GET /first-screen), it shows the server's drawing of that page instead, inert. When core announces
// the page it rendered (core/app/firstScreen.ts), it hands that state to the app's page and removes itself.
import { isLng, LNG_STORAGE_KEY, storedLanguage } from '../i18n/language';
import { hashPathname, matchesPath } from '../navigation/paths';
import { TOKEN_KEY } from '../session/stored';
import { DRAWING_DEADLINE_MS, DRAWN_ANSWERS_KEY, type DrawnAnswers, FIRST_SCREEN, HIDE_ROOT_RULE, type RenderedFirstScreen, type RoutePreloads, type ScreenShown } from '../../shared/first-screen.ts';

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function isField(element: Element | null): element is Field {
  return element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement;
}

/** Sets a field's value the way typing does, so a controlled React input hears it (`input` event, native setter). */
function setValueAsTyped(field: Field, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value')?.set;
  if (setter) setter.call(field, value);
  else field.value = value;
  field.dispatchEvent(new Event('input', { bubbles: true }));
  if (field instanceof HTMLSelectElement) field.dispatchEvent(new Event('change', { bubbles: true }));
}

/** The app's field of the same name and type: the first one in the document outside the static page. */
function liveFieldFor(doc: Document, host: Element, field: Field): Field | null {
  for (const candidate of doc.querySelectorAll(`[name="${CSS.escape(field.name)}"]`)) {
    if (!host.contains(candidate) && isField(candidate) && candidate.type === field.type) return candidate;
  }
  return null;
}

function caretOf(field: Field): [number, number] | null {
  try {
    const { selectionStart, selectionEnd } = field as HTMLInputElement;
    return selectionStart === null ? null : [selectionStart, selectionEnd ?? selectionStart];
  } catch {
    return null; // a field type without a caret
  }
}

/** The login page's templates and its stylesheet (a signed-in visit needs neither). */
function removeLoginScreen(doc: Document): void {
  doc.getElementById(FIRST_SCREEN.style)?.remove();
  for (const template of doc.querySelectorAll(`template[id^="${FIRST_SCREEN.templatePrefix}"]`)) template.remove();
}

/** The static page, its templates and its stylesheet: gone once the app shows (its styles are its own). */
function removeFirstScreen(doc: Document): void {
  doc.getElementById(FIRST_SCREEN.host)?.remove();
  removeLoginScreen(doc);
}

/** Hands the static page over (or just removes it) once core announces the page it rendered. */
function awaitHandOver(doc: Document, host: HTMLElement): void {
  const onShown = (event: Event) => {
    doc.removeEventListener(FIRST_SCREEN.shownEvent, onShown);
    handOver(doc, host, (event as CustomEvent<ScreenShown>).detail);
  };
  doc.addEventListener(FIRST_SCREEN.shownEvent, onShown);
}

/**
 * The app has put `shown.path` in the document. When the static page is that page: every named field's value
 * (checkboxes and radios by clicking, so their handlers run), the focus and caret, and a queued submit (replayed with
 * `requestSubmit` a task later, once React has rendered the values) move to the app's page. Then the static page goes.
 */
function handOver(doc: Document, host: HTMLElement, shown: ScreenShown): void {
  if (shown.path === null || host.dataset.path !== shown.path) {
    removeFirstScreen(doc);
    return;
  }
  const active = doc.activeElement;
  let focus: { field: Field; caret: [number, number] | null } | null = null;
  let liveForm: HTMLFormElement | null = null;
  for (const field of host.querySelectorAll('input[name], textarea[name], select[name]')) {
    if (!isField(field)) continue;
    const live = liveFieldFor(doc, host, field);
    if (!live) continue;
    liveForm ??= live.form;
    if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
      if (live instanceof HTMLInputElement && live.checked !== field.checked) live.click();
    } else if (live.value !== field.value) {
      setValueAsTyped(live, field.value);
    }
    if (field === active) focus = { field: live, caret: caretOf(field) };
  }
  const submitted = host.querySelector(`form[${FIRST_SCREEN.submittedAttr}]`) !== null;
  shown.adopted = true;
  shown.language = host.dataset.lng ?? null;
  removeFirstScreen(doc);
  if (focus) {
    focus.field.focus();
    if (focus.caret && !(focus.field instanceof HTMLSelectElement)) {
      try {
        focus.field.setSelectionRange(...focus.caret);
      } catch {
        // a field type without a caret
      }
    }
  }
  const form = liveForm;
  if (submitted && form) setTimeout(() => form.isConnected && form.requestSubmit(), 0);
}

function readBranding(doc: Document): Record<string, unknown> | null {
  const text = doc.getElementById(FIRST_SCREEN.branding)?.textContent;
  if (!text) return null;
  try {
    const envelope = JSON.parse(text) as { data?: unknown };
    return typeof envelope.data === 'object' && envelope.data !== null ? (envelope.data as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function storedToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/**
 * A static checkbox looks checked as the app's does. The app renders the checked colours (its root's classes) and the
 * tick (in the indicator after the input) only once checked, so the page holds neither; the build left both aside
 * (`FIRST_SCREEN.checkmark`). Unchecked, the root gets back the classes it was prerendered with.
 */
function showTick(doc: Document, box: HTMLInputElement): void {
  const indicator = box.nextElementSibling;
  const root = box.parentElement;
  const checked = doc.getElementById(FIRST_SCREEN.checkmark);
  if (indicator?.getAttribute('aria-hidden') !== 'true' || !root || !(checked instanceof HTMLTemplateElement)) return;
  root.dataset.prerenderedClass ??= root.className;
  if (box.checked) {
    root.className = checked.dataset.class ?? root.className;
    indicator.replaceChildren(checked.content.cloneNode(true));
  } else {
    root.className = root.dataset.prerenderedClass;
    indicator.replaceChildren();
  }
}

/** A module for this page: run (`<script type="module">`) or only fetched (`<link rel="modulepreload">`). */
function addModule(doc: Document, href: string, run: boolean): void {
  const element = run ? Object.assign(doc.createElement('script'), { type: 'module', src: href }) : Object.assign(doc.createElement('link'), { rel: 'modulepreload', href });
  element.crossOrigin = '';
  doc.head.append(element);
}

/**
 * The console's entry and the app chunks it imports at once (the build moved them from the page to the host's
 * `data-entry` / `data-preload`): fetched from here, after the static page shows, so that their arrival does not
 * hold it back. A module added here runs as soon as it has arrived (not once the page has parsed); the entry waits
 * for `#root` if it must (core/main.tsx).
 */
function startConsole(doc: Document, entry: string | undefined, preload: readonly string[]): void {
  if (!entry) return;
  addModule(doc, entry, true);
  for (const href of preload) if (href) addModule(doc, href, false);
}

/** Shows the prerendered page when it applies (see above), then starts the console whatever happened. The build
 * runs it from firstScreenBoot.entry.ts. */
export function bootFirstScreen(doc: Document = document): void {
  const host = doc.getElementById(FIRST_SCREEN.host);
  if (!host) return;
  const { entry, preload } = host.dataset;
  let pagePreload: string[] = [];
  try {
    pagePreload = showFirstScreen(doc, host);
  } finally {
    // The console's own chunks first, then those of the page it opens on (the static page's, or the route's when signed in).
    startConsole(doc, entry, [...(preload?.split(' ') ?? []), ...pagePreload]);
  }
}

/** The build's route table on the host (RoutePreloads); null when missing or corrupt. */
function routeTableOf(host: HTMLElement): RoutePreloads | null {
  try {
    return JSON.parse(host.dataset.routes ?? '') as RoutePreloads;
  } catch {
    return null;
  }
}

/**
 * A signed-in visit's chunks for the URL's route (the build's table on the host, RoutePreloads): its plugin's, core's
 * strings and the API transport, and its layout's with the locale bundle. None for a route the table does not know
 * (`/`: the landing rule decides there).
 */
function routePreload(table: RoutePreloads, route: RoutePreloads['routes'][number] | undefined): string[] {
  if (!route) return [];
  const [, pluginId, layout] = route;
  const lng = storedLanguage();
  const picked = [...(table.plugins[pluginId] ?? []), ...(table.start[lng] ?? [])];
  if (layout !== 'bare') picked.push(...(table.layouts[layout] ?? []), ...(table.bundles[lng] ?? []));
  return [...new Set(picked)].flatMap((index) => table.files[index] ?? []);
}

/**
 * A signed-in visit to a page the server draws (GET /first-screen, server/modules/first-screen): the server renders
 * it with the app's own components and the caller's own data, and it shows here, inert, until the app has rendered
 * the same page (core announces it; the static copy then goes in the same frame), or until DRAWING_DEADLINE_MS after
 * the boot. The app's start does not wait for it: an answer that comes after the app's page, or none, changes nothing.
 */
function drawFromServer(doc: Document, host: HTMLElement, pathname: string, token: string): void {
  const lng = storedLanguage();
  awaitHandOver(doc, host);
  // Never over the live console for long, whatever it shows and whether or not it says so (DRAWING_DEADLINE_MS).
  setTimeout(() => host.isConnected && removeFirstScreen(doc), DRAWING_DEADLINE_MS);
  fetch(`/first-screen?path=${encodeURIComponent(pathname)}&lng=${encodeURIComponent(lng)}`, { headers: { [TOKEN_KEY]: token }, credentials: 'same-origin' })
    .then((res) => res.json() as Promise<{ code?: unknown; data?: Partial<RenderedFirstScreen> | null }>)
    .then(({ code, data }) => {
      if (!host.isConnected) return; // the app's page is in already
      if (code !== 1 || typeof data?.html !== 'string' || typeof data.css !== 'string' || typeof data.route !== 'string') {
        host.remove();
        return;
      }
      // The entry's early start takes these instead of asking again (core/app/early.ts).
      if (typeof data.answers === 'object' && data.answers !== null) {
        const drawn: DrawnAnswers = { token, bodies: data.answers };
        Object.defineProperty(doc.defaultView ?? window, DRAWN_ANSWERS_KEY, { value: drawn, configurable: true });
      }
      const style = doc.createElement('style');
      style.id = FIRST_SCREEN.style;
      style.textContent = HIDE_ROOT_RULE + data.css;
      doc.head.append(style);
      host.innerHTML = data.html;
      host.dataset.path = data.route;
      host.dataset.lng = lng;
      // A picture of the page until the app's own is in: nothing in it may be clicked, focused or read out.
      host.setAttribute('inert', '');
      host.hidden = false;
    })
    .catch(() => host.isConnected && host.remove());
}

/** Shows the static page when it applies; answers the chunks the app's copy of that page needs (the build lists them). */
function showFirstScreen(doc: Document, host: HTMLElement): string[] {
  const token = storedToken();
  if (token !== null) {
    const table = routeTableOf(host);
    const hash = doc.defaultView?.location.hash ?? '';
    const pathname = hashPathname(hash);
    const route = table?.routes?.find(([pattern]) => matchesPath(pattern, pathname));
    // The login page is not needed, nor worth showing before the app's page.
    removeLoginScreen(doc);
    // A query (`#/login-log?state=0`) may filter the page: the server draws it as it opens without one.
    if (route?.[3] === 1 && !hash.includes('?')) drawFromServer(doc, host, pathname, token);
    else host.remove();
    return table ? routePreload(table, route) : [];
  }
  const branding = readBranding(doc);

  const show = (lng: string): boolean => {
    const template = doc.getElementById(`${FIRST_SCREEN.templatePrefix}${lng}`);
    if (!(template instanceof HTMLTemplateElement)) return false;
    // Values typed so far survive a language switch.
    const typed = new Map<string, string | boolean>();
    for (const field of host.querySelectorAll('input[name]')) {
      if (field instanceof HTMLInputElement) typed.set(field.name, field.type === 'checkbox' ? field.checked : field.value);
    }
    host.replaceChildren(template.content.cloneNode(true));
    for (const field of host.querySelectorAll('input[name]')) {
      const value = field instanceof HTMLInputElement ? typed.get(field.name) : undefined;
      if (!(field instanceof HTMLInputElement) || value === undefined) continue;
      if (typeof value === 'boolean') {
        field.checked = value;
        showTick(doc, field);
      } else field.value = value;
    }
    for (const element of host.querySelectorAll<HTMLElement>(`[${FIRST_SCREEN.brandAttr}]`)) {
      const value = branding?.[element.getAttribute(FIRST_SCREEN.brandAttr) ?? ''];
      if (typeof value === 'string' && value !== '') {
        element.textContent = value;
        element.hidden = false;
      }
    }
    host.dataset.path = template.dataset.path ?? '';
    host.dataset.lng = lng;
    doc.documentElement.lang = lng;
    return true;
  };

  const lng = storedLanguage();
  if (!show(lng)) return [];
  if (typeof branding?.name === 'string' && branding.name !== '') doc.title = branding.name;
  host.hidden = false;

  host.addEventListener('change', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type === 'checkbox') showTick(doc, event.target);
  });
  host.addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    form.setAttribute(FIRST_SCREEN.submittedAttr, '');
    form.querySelector('[type="submit"]')?.setAttribute('aria-busy', 'true');
    host.style.cursor = 'progress';
  });
  // The page's language buttons (core's LanguageSwitch: one button per language, marked `lang`).
  host.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('fieldset button[lang]') : null;
    const lng = button?.getAttribute('lang');
    if (!isLng(lng) || lng === host.dataset.lng) return;
    try {
      window.localStorage.setItem(LNG_STORAGE_KEY, lng);
    } catch {
      // storage unavailable: the switch lasts for this page
    }
    show(lng);
  });
  awaitHandOver(doc, host);
  // Fetched now, not once the entry has run.
  return doc.getElementById(`${FIRST_SCREEN.templatePrefix}${lng}`)?.dataset.preload?.split(' ') ?? [];
}
