// Every page the build registers, in both languages, on a database that looks lived-in (tests/e2e/lived-in.ts): the
// production bundle, a full load per page (so the server's drawing of a list page and its hand-over run too), and a
// page fails on core's page-failure or chunk-failure screen, an uncaught error, or a drawing still inert after 5 s.
// Issue 27: 资产管理 and 我的资产 broke with "t.fromNow is not a function" once an asset had a last access time, in the
// bundle only; a token without its stored user left the drawing of #/user inert for good. Needs `npx vite build` and
// root (its own sshd).
import { readFileSync } from 'node:fs';
import { type Browser, expect, type Page, test } from '@playwright/test';
import type { RoutePreloads } from '../../shared/first-screen.ts';
import { startSshd, type TestSshd } from '../server/sshd';
import { type LivedIn, seedLivedIn } from './lived-in';
import { type RunningServer, startServer } from './server';

let server: RunningServer;
let sshd: TestSshd;
let world: LivedIn;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  [server, sshd] = await Promise.all([startServer(), startSshd()]);
  world = await seedLivedIn(server, sshd);
});

test.afterAll(async () => {
  await Promise.all([server?.stop(), sshd?.stop()]);
});

const LANGUAGES = ['zh-CN', 'en-US'] as const;
type Lng = (typeof LANGUAGES)[number];

/** What core's failure screens say, in each language (from the locale files the bundle carries). */
function failureTitles(lng: Lng): string[] {
  const core = JSON.parse(readFileSync(`locales/${lng}/core.json`, 'utf8')) as { error: Record<string, { title?: string }> };
  return Object.values(core.error).flatMap((group) => (typeof group === 'object' && group.title ? [group.title] : []));
}

async function routeTable(): Promise<RoutePreloads['routes']> {
  const html = await (await fetch(`${server.baseURL}/`)).text();
  const attribute = html.match(/data-routes="([^"]*)"/)?.[1];
  if (!attribute) throw new Error('index.html has no route table (data-routes)');
  return (JSON.parse(attribute.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as RoutePreloads).routes;
}

/** A detail route on a real record: the list's first row. */
const RECORDS: Record<string, string> = {
  assetId: '/assets/paging',
  userId: '/users/paging',
  roleId: '/roles/paging',
  userGroupId: '/user-groups/paging',
  strategyId: '/strategies/paging',
};

async function onRecord(pattern: string): Promise<string> {
  let path = pattern;
  for (const [, name] of pattern.matchAll(/:([A-Za-z]+)/g)) {
    const list = name ? RECORDS[name] : undefined;
    if (!name || !list) throw new Error(`${pattern}: no record for :${name} — add its list to RECORDS here`);
    const res = await fetch(`${server.baseURL}${list}?pageIndex=1&pageSize=1`, { headers: { 'X-Auth-Token': world.adminToken } });
    const id = ((await res.json()) as { data: { items: { id: string }[] } }).data.items[0]?.id;
    if (!id) throw new Error(`${pattern}: ${list} has no record`);
    path = path.replace(`:${name}`, encodeURIComponent(id));
  }
  return path;
}

/** A browser tab signed in as `username` (token and user stored as the console stores them) in `lng`. */
async function signedInTab(browser: Browser, username: string, password: string, lng: Lng, storeUser = true): Promise<Page> {
  const res = await fetch(`${server.baseURL}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  const { data } = (await res.json()) as { data: { token: string; info: unknown } };
  const context = await browser.newContext({ locale: lng });
  await context.addInitScript(
    ([token, user, language]) => {
      if (!location.protocol.startsWith('http')) return; // about:blank, between two visits
      localStorage.setItem('X-Auth-Token', token);
      if (user) localStorage.setItem('user', user);
      localStorage.setItem('jumpgate.lng', language);
    },
    [data.token, storeUser ? JSON.stringify(data.info) : '', lng] as const,
  );
  return context.newPage();
}

/**
 * Loads `path` afresh and waits until it has settled; answers what is wrong with it (nothing: []). Uncaught errors
 * are collected by the caller's listener into `errors`.
 */
async function visit(page: Page, path: string, lng: Lng, errors: string[]): Promise<string[]> {
  const before = errors.length;
  await page.goto('about:blank');
  await page.goto(`${server.baseURL}/#${path}`);
  const problems: string[] = [];
  // The server's drawing gives way to the console's page within 5 s, whatever the console shows.
  const inert = page.locator('#first-screen[inert]');
  try {
    await expect(inert).toHaveCount(0, { timeout: 5_000 });
  } catch {
    problems.push('still showing an inert drawing after 5 s');
  }
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .fui-Spinner'), undefined, { timeout: 15_000 }).catch(() => {
    problems.push('still busy after 15 s');
  });
  await page.waitForTimeout(150); // a late render error
  for (const title of failureTitles(lng)) {
    if ((await page.getByText(title, { exact: true }).count()) > 0) {
      const why = (await page.getByTestId('core.page-error').textContent().catch(() => null)) ?? '';
      problems.push(`shows "${title}" ${why}`.trim());
    }
  }
  if (!(await page.locator('#root').isVisible())) problems.push('#root is hidden');
  problems.push(...errors.slice(before).map((e) => `uncaught: ${e}`));
  return problems.map((p) => `${lng} ${path}: ${p}`);
}

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

for (const lng of LANGUAGES) {
  test(`every admin page, detail pages on a record, works on a lived-in database (${lng})`, async ({ browser }) => {
    test.setTimeout(240_000);
    const patterns = (await routeTable()).filter(([, , layout]) => layout === 'admin').map(([pattern]) => pattern);
    expect(patterns.length).toBeGreaterThan(10);
    const page = await signedInTab(browser, 'admin', server.adminPassword, lng);
    const errors = collectErrors(page);
    const found: string[] = [];
    for (const pattern of patterns) found.push(...(await visit(page, await onRecord(pattern), lng, errors)));
    expect(found).toEqual([]);
    // The lists show their lived-in rows (not an empty page that failed quietly).
    await visit(page, '/asset', lng, errors);
    await expect(page.getByRole('cell', { name: 'build-host' }).first()).toBeVisible();
    await page.context().close();
  });

  test(`every portal page, the playback and the login page work on a lived-in database (${lng})`, async ({ browser }) => {
    test.setTimeout(120_000);
    const table = await routeTable();
    const portal = await signedInTab(browser, world.user.username, world.user.password, lng);
    const errors = collectErrors(portal);
    const found: string[] = [];
    for (const [pattern] of table.filter(([, , layout]) => layout === 'user')) found.push(...(await visit(portal, pattern, lng, errors)));
    expect(found).toEqual([]);
    await visit(portal, '/my-asset', lng, errors);
    await expect(portal.getByText('build-host').first()).toBeVisible();
    await portal.context().close();

    const admin = await signedInTab(browser, 'admin', server.adminPassword, lng);
    const adminErrors = collectErrors(admin);
    found.push(...(await visit(admin, `/term-playback?sessionId=${encodeURIComponent(world.recordedSessionId)}`, lng, adminErrors)));
    await admin.context().close();

    const visitor = await (await browser.newContext({ locale: lng })).newPage();
    const visitorErrors = collectErrors(visitor);
    found.push(...(await visit(visitor, '/login', lng, visitorErrors)));
    await visitor.context().close();
    expect(found).toEqual([]);
  });
}

test('a stored token without its stored user: the drawing of #/user gives way to the console, which shows the list', async ({ browser }) => {
  const page = await signedInTab(browser, 'admin', server.adminPassword, 'zh-CN', false);
  const errors = collectErrors(page);
  expect(await visit(page, '/user', 'zh-CN', errors)).toEqual([]);
  await expect(page.getByTestId('core.admin-layout')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'alice', exact: true })).toBeVisible();
  // The console stored the user it fetched: the next visit has both again.
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null')?.username)).toBe('admin');
  await page.context().close();
});
