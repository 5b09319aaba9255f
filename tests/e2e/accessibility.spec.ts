import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import type { RoutePreloads } from '../../shared/first-screen.ts';
import { apiCall, apiToken, type RunningServer, signedIn, startServer } from './server';

// Every page the build registers, audited by axe-core against WCAG 2.1 A and AA in real Chromium: each admin page as
// the admin, with its "new" dialog where it has one; each portal page as a type-user; the login page as a visitor.
// The page list is the build's own route table (index.html's `data-routes`), so a new plugin's pages are audited
// without touching this file; a detail page (a route with a parameter) is opened on a record made for it, and a new
// parameter fails the test until it has one. The bare session screens (terminal, playback) need a live session and
// are covered by their own journeys.
let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer();
});

test.afterAll(async () => {
  await server?.stop();
});

/** The build's route table, read from the index.html the server sends. */
async function routeTable(): Promise<RoutePreloads['routes']> {
  const html = await (await fetch(`${server.baseURL}/`)).text();
  const attribute = html.match(/data-routes="([^"]*)"/)?.[1];
  if (!attribute) throw new Error('index.html has no route table (data-routes)');
  return (JSON.parse(attribute.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as RoutePreloads).routes;
}

async function pagesOf(layout: string): Promise<string[]> {
  return (await routeTable()).filter(([, , of]) => of === layout).map(([pattern]) => pattern);
}

/** Where to find a record for each detail page's parameter (the list's first row, after the records made below). */
const RECORDS: Record<string, string> = {
  assetId: '/assets/paging',
  userId: '/users/paging',
  roleId: '/roles/paging',
  userGroupId: '/user-groups/paging',
  strategyId: '/strategies/paging',
};

/** A detail route's path on a real record: `/asset/:assetId` → `/asset/<id>`. */
async function onRecord(request: APIRequestContext, pattern: string, token: string): Promise<string> {
  let path = pattern;
  for (const [, name] of pattern.matchAll(/:([A-Za-z]+)/g)) {
    const list = name ? RECORDS[name] : undefined;
    if (!name || !list) throw new Error(`${pattern}: no record for :${name} — add its list to RECORDS in this audit`);
    const id = (await apiCall<{ items: { id: string }[] }>(request, server, token, 'GET', `${list}?pageIndex=1&pageSize=1`)).items[0]?.id;
    if (!id) throw new Error(`${pattern}: ${list} has no record`);
    path = path.replace(`:${name}`, encodeURIComponent(id));
  }
  return path;
}

/** "rule (impact): where — what to fix" for each violation, so that a failure reads without a debugger. */
async function violations(page: Page, scope?: string): Promise<string[]> {
  // Motions finished first (a dialog fades in): mid-fade, axe measures the contrast of half-blended colours.
  await page.evaluate(() =>
    Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY).map((a) => a.finished.catch(() => undefined))),
  );
  // Tabster (Fluent's focus manager) puts aria-hidden focus sentinels (`<i data-tabster-dummy>`) at the edges of
  // focus groups: they forward focus and are never read, but axe's aria-hidden-focus rule counts them.
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).exclude('[data-tabster-dummy]');
  if (scope) builder = builder.include(scope);
  const { violations: found } = await builder.analyze();
  return found.flatMap((v) =>
    v.nodes
      // A tree branch is named by its own label (core's CheckTree), not by the text of every item nested in it; axe's
      // experimental label-in-name rule counts that nested text as the branch's visible label.
      .filter((node) => !(v.id === 'label-content-name-mismatch' && node.html.includes('role="treeitem"')))
      .map((node) => `${v.id} (${v.impact}): ${node.target.join(' ')} — ${node.failureSummary?.split('\n').slice(1).join(' ').trim()}`),
  );
}

/** Opens a page and waits until nothing on it is loading. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(`${server.baseURL}/#${path}`);
  await expect(page).toHaveURL(new RegExp(`#${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\?|$)`));
  // Busy regions and Fluent's spinners (not progress bars: the monitoring page shows load as bars).
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .fui-Spinner'));
}

test('every admin page, detail pages on a record, and each "new" dialog pass axe (WCAG 2.1 AA)', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const token = await apiToken(request, server, 'admin', server.adminPassword);
  const make = (path: string, data: object) => apiCall(request, server, token, 'POST', path, data);
  await make('/assets', { name: 'web-01', protocol: 'ssh', ip: '10.9.0.1', port: 22, accountType: 'custom', username: 'root', password: 'x-Secret-1', tags: '', description: '' });
  await make('/user-groups', { name: 'ops', members: [] });
  await make('/strategies', { name: 'read-only' });

  const patterns = await pagesOf('admin');
  expect(patterns.length).toBeGreaterThan(10);
  const paths = await Promise.all(patterns.map((pattern) => onRecord(request, pattern, token)));
  const page = await signedIn(browser, request, server, 'admin', server.adminPassword, '/dashboard');
  const found: string[] = [];
  for (const path of paths) {
    await open(page, path);
    found.push(...(await violations(page)).map((v) => `${path}: ${v}`));
    const add = page.getByRole('button', { name: '新建', exact: true });
    if ((await add.count()) === 0) continue;
    await add.first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    found.push(...(await violations(page, '[role="dialog"]')).map((v) => `${path}, new dialog: ${v}`));
    await page.keyboard.press('Escape');
    // Gone, and the page behind given back: Fluent's focus manager lifts the dialog's aria-hidden from the page a
    // moment after the dialog is removed.
    await expect(dialog).toHaveCount(0);
    await expect(page.locator('#root')).not.toHaveAttribute('aria-hidden', 'true');
  }
  expect(found).toEqual([]);
});

test('every portal page passes axe as a type-user, and so does the login page', async ({ browser, page, request }) => {
  const token = await apiToken(request, server, 'admin', server.adminPassword);
  const user = { username: 'a11y-user', password: 'A11y-User-Pass-1', nickname: 'A11y', type: 'user', mail: '', roles: [] };
  await apiCall(request, server, token, 'POST', '/users', user);

  const paths = await pagesOf('user');
  expect(paths).toContain('/my-asset');
  expect(paths.filter((path) => path.includes(':')), 'a portal detail page needs a record made for it here').toEqual([]);
  const portal = await signedIn(browser, request, server, user.username, user.password, '/my-asset');
  const found: string[] = [];
  for (const path of paths) {
    await open(portal, path);
    found.push(...(await violations(portal)).map((v) => `${path}: ${v}`));
  }

  await page.goto(`${server.baseURL}/#/login`);
  await expect(page.getByLabel('登录密码')).toBeVisible();
  found.push(...(await violations(page)).map((v) => `/login: ${v}`));
  expect(found).toEqual([]);
});
