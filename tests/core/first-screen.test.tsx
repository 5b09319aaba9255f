// index.html's prerendered login page (core/app/prerender.tsx, firstScreenBoot.ts, firstScreen.ts): rendered from the
// app's own login page, shown by the boot with the server's branding, usable at once (typing, a queued submit, the
// language switch), then handed over to the app's page with everything the visitor did.
import { type AnyPlugin, definePlugin } from '@/core';
import { renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { announceScreen, DRAWING_DEADLINE_MS, DRAWN_ANSWERS_KEY, FIRST_SCREEN, HIDE_ROOT_RULE, type RoutePreloads } from '../../shared/first-screen.ts';
import { bootFirstScreen } from '../../core/app/firstScreenBoot';
import { drawnAnswers } from '../../core/app/early';
import { type PrerenderedScreen, prerenderFirstScreens } from '../../core/app/prerender';
import login from '../../plugins/login';

function UserListPage() {
  return <h1>user list page</h1>;
}

const adminInfo = { id: 'u1', username: 'admin', nickname: '超级管理员', type: 'admin', enableTotp: false, roles: null, menus: ['info'] };
const branding = { code: 1, message: 'success', data: { name: 'Acme Bastion', description: '远程访问堡垒机', copyright: 'c' } };

let screens: PrerenderedScreen[] = [];
beforeAll(async () => {
  screens = await prerenderFirstScreens();
});

const entryScripts = () => [...document.head.querySelectorAll<HTMLScriptElement>('script[type="module"]')].map((script) => script.getAttribute('src'));
const preloads = () => [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => link.getAttribute('href'));

afterEach(() => {
  announceScreen(null); // a boot still waiting lets go of the document
  vi.unstubAllGlobals();
  Reflect.deleteProperty(window, DRAWN_ANSWERS_KEY);
  window.location.hash = '';
  for (const element of document.head.querySelectorAll('link, script')) element.remove();
  document.body.innerHTML = '';
  document.title = '';
  window.localStorage.clear();
});

/** index.html as the build writes it and the server serves it, then its inline boot run as the parser would. */
function loadIndexHtml(): HTMLElement {
  const style = document.createElement('style');
  style.id = FIRST_SCREEN.style;
  style.textContent = screens[0]?.css ?? '';
  document.head.append(style);
  document.body.innerHTML =
    `<div id="${FIRST_SCREEN.host}" data-entry="/static/entry.js" data-preload="/static/vendor.js /static/app.js" hidden></div>` +
    screens
      .map((s) => `<template id="${FIRST_SCREEN.templatePrefix}${s.lng}" data-path="${s.path}" data-preload="/static/page-${s.lng}.js /static/transport.js">${s.html}</template>`)
      .join('') +
    `<template id="${FIRST_SCREEN.checkmark}" data-class="${screens[0]?.checkmark.rootClass ?? ''}">${screens[0]?.checkmark.tick ?? ''}</template>` +
    `<script type="application/json" id="${FIRST_SCREEN.branding}">${JSON.stringify(branding)}</script>`;
  const host = document.getElementById(FIRST_SCREEN.host);
  if (!host) throw new Error('no host');
  bootFirstScreen();
  return host;
}

describe('prerendered first screen', () => {
  it("is the app's own login page in both languages, with its stylesheet as plain rules", () => {
    expect(screens.map((s) => [s.path, s.lng])).toEqual([
      ['/login', 'zh-CN'],
      ['/login', 'en-US'],
    ]);
    for (const s of screens) {
      const doc = new DOMParser().parseFromString(s.html, 'text/html');
      expect(doc.querySelector('form input[name="username"]'), s.lng).not.toBeNull();
      expect(doc.querySelector('form input[name="password"][type="password"]'), s.lng).not.toBeNull();
      expect(doc.querySelector('form input[name="remember"][type="checkbox"]'), s.lng).not.toBeNull();
      expect(doc.querySelector('form button[type="submit"]'), s.lng).not.toBeNull();
      expect(doc.querySelector('[data-brand="name"]'), s.lng).not.toBeNull();
    }
    expect(screens[0]?.html).toContain('登录账号');
    expect(screens[1]?.html).toContain('Username');
    expect(screens[0]?.css).toMatch(/\.[\w-]+\s*\{\s*[a-z-]+\s*:/);
    expect(screens[0]?.css).not.toContain('<style');
  });

  it('shows at once with the branding, takes typing and a submit, and hands all of it to the app, which signs in', async () => {
    const host = loadIndexHtml();
    expect(host.hidden).toBe(false);
    expect(host.dataset.lng).toBe('zh-CN');
    const shell = within(host);
    expect(shell.getByRole('heading', { level: 1 })).toHaveTextContent('Acme Bastion');
    expect(shell.getByText('远程访问堡垒机')).toBeVisible();
    expect(document.title).toBe('Acme Bastion');
    // Once it shows, the console starts (its entry and the app's chunks), then the app's copy of the page is fetched,
    // in the language shown.
    expect(entryScripts()).toEqual(['/static/entry.js']);
    await waitFor(() => expect(preloads()).toEqual(['/static/vendor.js', '/static/app.js', '/static/page-zh-CN.js', '/static/transport.js']));

    // The visitor uses the static form before any chunk has arrived.
    const user = userEvent.setup();
    await user.type(shell.getByLabelText(/登录账号/), 'admin');
    await user.type(shell.getByLabelText(/登录密码/), 'secret-1');
    // A ticked box shows its tick, as the app's does (the prerendered markup has none: the app renders it when checked).
    const remember = shell.getByRole('checkbox', { name: '保持登录' });
    const tick = () => remember.nextElementSibling?.querySelector('svg') ?? null;
    const prerendered = remember.parentElement?.className;
    expect(tick()).toBeNull();
    await user.click(remember);
    expect(tick()).not.toBeNull();
    expect(remember.parentElement?.className).toBe(screens[0]?.checkmark.rootClass); // the checked colours
    expect(prerendered).not.toBe(screens[0]?.checkmark.rootClass);
    await user.click(remember);
    expect(tick()).toBeNull();
    expect(remember.parentElement?.className).toBe(prerendered);
    await user.click(remember);
    await user.click(shell.getByRole('button', { name: '登录' }));
    expect(host.querySelector('form')).toHaveAttribute(FIRST_SCREEN.submittedAttr);
    expect(shell.getByRole('button', { name: '登录' })).toHaveAttribute('aria-busy', 'true');

    // The app arrives: its own login page takes the values over and sends the queued submit.
    const { api, location, session } = await renderPlugin(login, {
      route: '/login',
      session: { token: null, user: null },
      api: { 'POST /login': { token: 'tok-admin', info: adminInfo } },
    });
    expect(document.getElementById(FIRST_SCREEN.host)).toBeNull();
    expect(document.getElementById(FIRST_SCREEN.style)).toBeNull();
    await waitFor(() => expect(api.callsTo('POST /login').map((c) => c.body)).toEqual([{ username: 'admin', password: 'secret-1', remember: true }]));
    await waitFor(() => expect(session.getState().token).toBe('tok-admin'));
    await waitFor(() => expect(location().pathname).not.toBe('/login'));
  });

  it('keeps what was typed and the caret when no submit was made, and sends nothing', async () => {
    const host = loadIndexHtml();
    const user = userEvent.setup();
    await user.type(within(host).getByLabelText(/登录账号/), 'adm');
    const { api } = await renderPlugin(login, { route: '/login', session: { token: null, user: null } });
    expect(document.getElementById(FIRST_SCREEN.host)).toBeNull();
    const username = screen.getByLabelText(/登录账号/) as HTMLInputElement;
    expect(username).toHaveValue('adm');
    expect(username).toHaveFocus();
    expect(username.selectionStart).toBe(3);
    // Typing goes on in the app's field.
    await user.type(username, 'in');
    expect(username).toHaveValue('admin');
    expect(api.callsTo('POST /login')).toHaveLength(0);
  });

  it('switches language on its own buttons, keeping the values, and the app follows', async () => {
    const host = loadIndexHtml();
    const user = userEvent.setup();
    await user.type(within(host).getByLabelText(/登录账号/), 'ann');
    await user.click(within(host).getByRole('checkbox', { name: '保持登录' }));
    await user.click(within(host).getByRole('button', { name: 'English' }));
    // The ticked box stays ticked, tick shown, in the other language's copy.
    const remember = within(host).getByRole('checkbox', { name: 'Keep me signed in' });
    expect(remember).toBeChecked();
    expect(remember.nextElementSibling?.querySelector('svg')).not.toBeNull();
    expect(host.dataset.lng).toBe('en-US');
    expect(document.documentElement.lang).toBe('en-US');
    expect(window.localStorage.getItem('jumpgate.lng')).toBe('en-US');
    expect(within(host).getByLabelText(/Username/)).toHaveValue('ann');
    expect(within(host).getByRole('heading', { level: 1 })).toHaveTextContent('Acme Bastion');

    await renderPlugin(login, { route: '/login', session: { token: null, user: null } });
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Username/)).toHaveValue('ann');
  });

  it('stays hidden for a signed-in visitor, and goes when the app shows anything else', async () => {
    window.localStorage.setItem('X-Auth-Token', 'tok');
    const host = loadIndexHtml();
    // Nothing of it stays in the page, and the login page's chunks are not fetched: only the console's own.
    expect(preloads()).toEqual(['/static/vendor.js', '/static/app.js']);
    expect(document.getElementById(FIRST_SCREEN.host)).toBeNull();
    expect(document.getElementById(FIRST_SCREEN.style)).toBeNull();
    expect(document.querySelector('template')).toBeNull();
    expect(host.hidden).toBe(true);
    // The console's entry starts now, not once the whole page has parsed.
    expect(entryScripts()).toEqual(['/static/entry.js']);
    expect(announceScreen('/login')).toEqual({ path: '/login', adopted: false, language: null });
  });

  // The build's route table (scripts/prerender-first-screen.ts): a signed-in visit fetches its route's chunks with the
  // console's own, before the entry has run.
  const table: RoutePreloads = {
    files: ['/static/admin-layout.js', '/static/shared.js', '/static/zh-bundle.js', '/static/en-bundle.js', '/static/plugin-users.js', '/static/plugin-term.js', '/static/zh-core.js', '/static/en-core.js'],
    layouts: { admin: [0, 1] },
    start: { 'zh-CN': [6], 'en-US': [7] },
    bundles: { 'zh-CN': [2], 'en-US': [3] },
    plugins: { users: [4, 1], term: [5] },
    routes: [
      ['/user', 'users', 'admin', 1],
      ['/user/:userId', 'users', 'admin', 0],
      ['/term', 'term', 'bare', 0],
    ],
  };
  const bootSignedIn = (hash: string) => {
    window.localStorage.setItem('X-Auth-Token', 'tok');
    window.location.hash = hash;
    const routes = JSON.stringify(table).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    document.body.innerHTML = `<div id="${FIRST_SCREEN.host}" data-entry="/static/entry.js" data-preload="/static/vendor.js" data-routes="${routes}" hidden></div>`;
    bootFirstScreen();
  };

  it("fetches a signed-in visit's route chunks with the console's: the page's plugin, its layout, the strings", () => {
    bootSignedIn('#/User/42?tab=info');
    expect(entryScripts()).toEqual(['/static/entry.js']);
    expect(preloads()).toEqual([
      '/static/vendor.js',
      '/static/plugin-users.js',
      '/static/shared.js',
      '/static/zh-core.js',
      '/static/admin-layout.js',
      '/static/zh-bundle.js',
    ]);
  });

  it('fetches no layout for a full-window page, the stored language, and nothing more for a route it does not know', () => {
    window.localStorage.setItem('jumpgate.lng', 'en-US');
    bootSignedIn('#/term?assetId=a1');
    expect(preloads()).toEqual(['/static/vendor.js', '/static/plugin-term.js', '/static/en-core.js']);
    for (const element of document.head.querySelectorAll('link, script')) element.remove();
    bootSignedIn('#/');
    expect(preloads()).toEqual(['/static/vendor.js']);
    expect(entryScripts()).toEqual(['/static/entry.js']);
  });

  // A page the server draws (route flag 1): GET /first-screen, shown inert until the app announces the same page.
  const drawn = {
    route: '/user',
    lng: 'zh-CN',
    html: '<main><table><tbody><tr><td>admin</td></tr></tbody></table></main>',
    css: '.row{color:red}',
    answers: { '/users/paging': { code: 1, message: 'success', data: { total: 0, items: [] } } },
  };
  const serverAnswer = (body: unknown) => {
    let answer: (body: unknown) => void = () => undefined;
    const fetch = vi.fn((_url: string, _init?: RequestInit) => new Promise<Response>((resolve) => {
      answer = (value) => resolve(new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } }));
    }));
    vi.stubGlobal('fetch', fetch);
    const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
    /** Answers, then lets the boot read the body and act on it. */
    const respond = async () => {
      answer(body);
      await settled();
      await settled();
    };
    return { fetch, respond };
  };

  it("shows a signed-in visit's page as the server drew it, inert, until the app has rendered the same page", async () => {
    const server = serverAnswer({ code: 1, message: 'success', data: drawn });
    bootSignedIn('#/user');
    expect(server.fetch).toHaveBeenCalledWith('/first-screen?path=%2Fuser&lng=zh-CN', { headers: { 'X-Auth-Token': 'tok' }, credentials: 'same-origin' });
    // The console starts at once, not after the answer.
    expect(entryScripts()).toEqual(['/static/entry.js']);
    await server.respond();
    const host = document.getElementById(FIRST_SCREEN.host);
    expect(host?.hidden).toBe(false);
    expect(host?.hasAttribute('inert')).toBe(true);
    expect(host?.querySelector('td')?.textContent).toBe('admin');
    expect(document.getElementById(FIRST_SCREEN.style)?.textContent).toBe(HIDE_ROOT_RULE + drawn.css);
    // Left for the entry's early start, with the token they were drawn for.
    expect(drawnAnswers('tok')).toEqual(drawn.answers);
    expect(announceScreen('/user')).toEqual({ path: '/user', adopted: true, language: 'zh-CN' });
    expect(document.getElementById(FIRST_SCREEN.host)).toBeNull();
    expect(document.getElementById(FIRST_SCREEN.style)).toBeNull();
  });

  it("never shows the server's page once the app's is in, nor a refused or failed answer", async () => {
    const late = serverAnswer({ code: 1, message: 'success', data: drawn });
    bootSignedIn('#/user');
    announceScreen('/user');
    await late.respond();
    expect(document.getElementById(FIRST_SCREEN.host)).toBeNull();
    expect(document.getElementById(FIRST_SCREEN.style)).toBeNull();
    for (const body of [{ code: 1, message: 'success', data: null }, { code: 401, message: 'expired' }, 'not json']) {
      const server = serverAnswer(body);
      bootSignedIn('#/user');
      await server.respond();
      expect(document.getElementById(FIRST_SCREEN.host)).toBeNull();
      expect(document.getElementById(FIRST_SCREEN.style)).toBeNull();
    }
  });

  it('asks the server for no page it does not draw (a detail page, a full-window page, an unknown one, a query)', () => {
    const server = serverAnswer({ code: 1, message: 'success', data: drawn });
    // …nor a page whose URL has a query, which may filter it (the server draws a page as it opens without one).
    for (const hash of ['#/user/42', '#/term', '#/nowhere', '#/user?state=0']) {
      bootSignedIn(hash);
      expect(document.getElementById(FIRST_SCREEN.host)).toBeNull();
    }
    expect(server.fetch).not.toHaveBeenCalled();
  });

  it('starts the console even when the static page cannot show (no template in the page)', () => {
    document.body.innerHTML = `<div id="${FIRST_SCREEN.host}" data-entry="/static/entry.js" data-preload="/static/vendor.js" hidden></div>`;
    bootFirstScreen();
    expect(entryScripts()).toEqual(['/static/entry.js']);
    expect(preloads()).toEqual(['/static/vendor.js']);
  });

  it('is dropped, values untouched, when the app renders another page or an error', async () => {
    window.localStorage.clear();
    const host = loadIndexHtml();
    expect(host.hidden).toBe(false);
    // The console starts once the static page shows (not while the page parses: that would hold it back).
    expect(entryScripts()).toEqual(['/static/entry.js']);
    expect(announceScreen('/dashboard')).toEqual({ path: '/dashboard', adopted: false, language: null });
    expect(document.getElementById(FIRST_SCREEN.host)).toBeNull();
    expect(document.getElementById(FIRST_SCREEN.style)).toBeNull();
  });

  it("goes when the login page's chunk fails: the visitor sees the failure, not a form that cannot sign in", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const broken = definePlugin({
      id: 'fx-broken-login',
      pages: [{ menuKey: null, path: '/login', page: 'Login', labelKey: 'label', layout: 'bare' }],
      load: () => Promise.reject(new Error('network down')),
      locales: { 'zh-CN': { label: '登录' }, 'en-US': { label: 'Log in' } },
    });
    loadIndexHtml();
    await renderPlugin(broken, { route: '/login', session: { token: null, user: null } });
    expect(await screen.findByRole('alert')).toBeVisible();
    expect(document.getElementById(FIRST_SCREEN.host)).toBeNull();
    expect(document.getElementById(FIRST_SCREEN.style)).toBeNull();
  });

  // A signed-in page the console shows without announcing it, or another page than the one drawn: the drawing is a
  // picture over a hidden console, and must give way (issue 27: `#/user` with a token and no stored user stayed inert).
  // Typed as any plugin: its menu key is the fixture's own, not one of the shipped manifests' PermissionKeys.
  const listPlugin: AnyPlugin = {
    id: 'fx-users',
    manifest: { id: 'fx-users', locales: { 'zh-CN': { label: '用户' }, 'en-US': { label: 'Users' } }, menus: [{ key: 'fx-users', group: 'identity', labelKey: 'label' }], actions: [] },
    pages: [{ menuKey: 'fx-users', path: '/user', page: 'Page', layout: 'admin' }],
    load: () => Promise.resolve({ Page: UserListPage }),
    locales: { 'zh-CN': { label: '用户' }, 'en-US': { label: 'Users' } },
  };

  it('goes at its deadline when the console never announces a page, answered or not', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const server = serverAnswer({ code: 1, message: 'success', data: drawn });
      bootSignedIn('#/user');
      const responded = server.respond();
      await vi.advanceTimersByTimeAsync(10);
      await responded;
      const host = document.getElementById(FIRST_SCREEN.host);
      expect(host?.hasAttribute('inert')).toBe(true);
      await vi.advanceTimersByTimeAsync(DRAWING_DEADLINE_MS - 100);
      expect(document.getElementById(FIRST_SCREEN.host)).not.toBeNull();
      await vi.advanceTimersByTimeAsync(200);
      expect(document.getElementById(FIRST_SCREEN.host)).toBeNull();
      expect(document.getElementById(FIRST_SCREEN.style)).toBeNull();

      // No answer yet at the deadline: nothing shows, and a late answer shows nothing either.
      const slow = serverAnswer({ code: 1, message: 'success', data: drawn });
      bootSignedIn('#/user');
      await vi.advanceTimersByTimeAsync(DRAWING_DEADLINE_MS + 1);
      expect(document.getElementById(FIRST_SCREEN.host)).toBeNull();
      const late = slow.respond();
      await vi.advanceTimersByTimeAsync(10);
      await late;
      expect(document.getElementById(FIRST_SCREEN.host)).toBeNull();
      expect(document.getElementById(FIRST_SCREEN.style)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives way to the 403 page the console shows instead of the page drawn', async () => {
    const server = serverAnswer({ code: 1, message: 'success', data: drawn });
    bootSignedIn('#/user');
    await server.respond();
    expect(document.getElementById(FIRST_SCREEN.host)?.hasAttribute('inert')).toBe(true);
    vi.unstubAllGlobals();
    await renderPlugin(listPlugin, { route: '/user', session: { user: { menus: ['info'] } } });
    expect(await screen.findByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
    expect(document.getElementById(FIRST_SCREEN.host)).toBeNull();
    expect(document.getElementById(FIRST_SCREEN.style)).toBeNull();
  });

  it('with a token but no stored user, the console fetches the user, then shows the page drawn and takes its place', async () => {
    const server = serverAnswer({ code: 1, message: 'success', data: drawn });
    bootSignedIn('#/user');
    await server.respond();
    vi.unstubAllGlobals();
    const { session, api } = await renderPlugin(listPlugin, {
      route: '/user',
      session: { token: 'tok', user: null },
      api: { 'GET /account/info': { id: 'u1', username: 'admin', nickname: '超级管理员', type: 'admin', menus: ['fx-users'] } },
    });
    expect(await screen.findByRole('heading', { name: 'user list page' })).toBeInTheDocument();
    expect(api.callsTo('GET /account/info')).toHaveLength(1);
    expect(session.getState().user?.menus).toEqual(['fx-users']);
    expect(document.getElementById(FIRST_SCREEN.host)).toBeNull();
    expect(screen.queryByText('抱歉，您似乎没有此页面的权限。')).toBeNull();
  });

  it('with a token but no stored user whose fetch fails, says so with a retry that loads the page', async () => {
    let answers = 0;
    const { user } = await renderPlugin(listPlugin, {
      route: '/user',
      session: { token: 'tok', user: null },
      waitForLoad: false,
      api: {
        'GET /account/info': () => {
          answers += 1;
          if (answers === 1) throw new Error('Network Error');
          return { id: 'u1', type: 'admin', menus: ['fx-users'] };
        },
      },
    });
    expect(await screen.findByText('页面加载失败')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '重试' }));
    expect(await screen.findByRole('heading', { name: 'user list page' })).toBeInTheDocument();
  });
});
