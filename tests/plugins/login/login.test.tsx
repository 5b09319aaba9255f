import { defineManifest, type KeyMap } from '@/shared/manifest';
import { definePlugin } from '@/core';
import { expectValidPlugin, type FakeRequest, reply, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import login from '../../../plugins/login';

// Fluent dialogs animate in; give a loaded parallel run some room.
const SLOW = { timeout: 5000 };
const signedOut = { token: null, user: null };
const adminInfo = { id: 'u1', username: 'admin', nickname: '超级管理员', type: 'admin', enableTotp: false, roles: null, menus: ['dashboard', 'info'] };

// Stand-ins for the plugins that declare the homes of both account types (core's landing rule reads them).
const Home = () => <h1>home</h1>;
const homesStrings = { 'zh-CN': { label: '首页' }, 'en-US': { label: 'Home' } };
const homesManifest = defineManifest({
  id: 'fx-homes',
  locales: homesStrings,
  menus: [
    { key: 'dashboard', group: 'dashboard', labelKey: 'label' },
    { key: 'user', group: 'identity', labelKey: 'label' },
  ],
});
declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof homesManifest> {}
}
const homes = definePlugin({
  id: 'fx-homes',
  manifest: homesManifest,
  pages: [
    { menuKey: 'dashboard', group: 'dashboard', path: '/dashboard', page: 'Home', layout: 'admin', home: 'admin' },
    { menuKey: null, path: '/my-asset', page: 'Home', labelKey: 'label', layout: 'user', home: 'user' },
    { menuKey: 'user', group: 'identity', path: '/user', page: 'Home', layout: 'admin' },
  ],
  load: () => Promise.resolve({ Home }),
  locales: homesStrings,
});
const withHomes = { extraPlugins: [homes] };

beforeEach(() => {
  window.sessionStorage.clear();
  document.title = '';
});

async function fill(user: Awaited<ReturnType<typeof renderPlugin>>['user'], username: string, password: string) {
  await user.type(screen.getByLabelText(/登录账号/), username);
  await user.type(screen.getByLabelText(/登录密码/), password);
}

describe('login plugin', () => {
  it('is a valid plugin', async () => {
    await expectValidPlugin(login);
  });

  it('shows the branding, titles the tab with the brand name, and offers a language switch', async () => {
    await renderPlugin(login, {
      session: signedOut,
      api: { 'GET /branding': { name: 'Acme Bastion', description: '远程访问堡垒机', copyright: 'c' } },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Bastion' })).toBeInTheDocument();
    expect(screen.getByText('远程访问堡垒机')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Acme Bastion'));
    const switcher = screen.getByRole('group', { name: '语言' });
    expect(within(switcher).getByRole('button', { name: '简体中文' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(switcher).getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('checkbox', { name: '保持登录' })).not.toBeChecked();
  });

  it('requires both fields with the 1.3.9 messages and posts nothing', async () => {
    const { user, api } = await renderPlugin(login, { session: signedOut, api: { 'POST /login': reply.envelope(-1, 'should not be called') } });
    await user.click(await screen.findByRole('button', { name: '登录' }));
    expect(await screen.findByText('请输入登录账号！')).toBeInTheDocument();
    expect(screen.getByText('请输入登录密码！')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/登录账号/), 'admin');
    await user.click(await screen.findByRole('button', { name: '登录' }));
    expect(screen.queryByText('请输入登录账号！')).toBeNull();
    expect(screen.getByText('请输入登录密码！')).toBeInTheDocument();
    expect(api.callsTo('POST /login')).toHaveLength(0);
  });

  it('signs an admin in: stores token and user, clears the menu state, and lands on the admin home', async () => {
    window.sessionStorage.setItem('openKeys', '["resource"]');
    window.sessionStorage.setItem('current', '/asset');
    const { user, api, session, location } = await renderPlugin(login, {
      ...withHomes,
      session: signedOut,
      api: { 'POST /login': { token: 'tok-admin', info: adminInfo } },
    });
    await fill(user, 'admin', 'secret-1');
    await user.click(await screen.findByRole('checkbox', { name: '保持登录' }));
    await user.click(await screen.findByRole('button', { name: '登录' }));
    // Core's landing rule, straight from the login answer's menus (no stop at `/`).
    await waitFor(() => expect(location().pathname).toBe('/dashboard'));
    expect(await screen.findByRole('heading', { name: 'home' })).toBeInTheDocument();
    expect(api.callsTo('POST /login').map((c) => c.body)).toEqual([{ username: 'admin', password: 'secret-1', remember: true }]);
    expect(session.getState().token).toBe('tok-admin');
    expect(session.getState().user).toMatchObject({ username: 'admin', type: 'admin', menus: ['dashboard', 'info'] });
    expect(window.sessionStorage.getItem('openKeys')).toBeNull();
    expect(window.sessionStorage.getItem('current')).toBeNull();
  });

  it('sends a type-user account to /my-asset, with menus null stored as []', async () => {
    const { user, api, session, location } = await renderPlugin(login, {
      ...withHomes,
      session: signedOut,
      api: { 'POST /login': { token: 'tok-user', info: { id: 'u2', username: 'ann', nickname: 'Ann', type: 'user', menus: null } } },
    });
    await fill(user, 'ann', 'pw');
    await user.click(await screen.findByRole('button', { name: '登录' }));
    await waitFor(() => expect(location().pathname).toBe('/my-asset'));
    expect(api.callsTo('GET /account/info')).toHaveLength(0);
    expect(session.getState().token).toBe('tok-user');
    expect(session.getState().user).toMatchObject({ username: 'ann', type: 'user', menus: [] });
  });

  it('returns to the page the visitor was sent away from, when the account may open it', async () => {
    const { user, location } = await renderPlugin(login, {
      ...withHomes,
      route: `/login?from=${encodeURIComponent('/user?page=2')}`,
      session: signedOut,
      api: { 'POST /login': { token: 'tok-admin', info: { ...adminInfo, menus: ['dashboard', 'user'] } } },
    });
    await fill(user, 'admin', 'secret-1');
    await user.click(await screen.findByRole('button', { name: '登录' }));
    await waitFor(() => expect(location().pathname).toBe('/user'));
    expect(location().search).toBe('?page=2');
  });

  it('ignores a return path the account may not open (or that is not a page), and lands by the rule', async () => {
    for (const from of ['/user', '/nowhere', '//evil.example/x']) {
      const { user, location, unmount } = await renderPlugin(login, {
        ...withHomes,
        route: `/login?from=${encodeURIComponent(from)}`,
        session: signedOut,
        api: { 'POST /login': { token: 'tok-admin', info: adminInfo } },
      });
      await fill(user, 'admin', 'secret-1');
      await user.click(await screen.findByRole('button', { name: '登录' }));
      await waitFor(() => expect(location().pathname, from).toBe('/dashboard'));
      unmount();
    }
  });

  it('code 100 opens the two-factor dialog; the second post carries totp and signs in', async () => {
    const { user, api, session, location } = await renderPlugin(login, {
      ...withHomes,
      session: signedOut,
      api: {
        'POST /login': (req: FakeRequest) =>
          (req.body as { totp?: string }).totp === '123456' ? { token: 'tok-2fa', info: adminInfo } : reply.envelope(100, ''),
      },
    });
    await fill(user, 'admin', 'secret-1');
    await user.click(await screen.findByRole('button', { name: '登录' }));
    const dialog = await screen.findByRole('dialog', { name: '双因素认证' }, SLOW);
    const input = within(dialog).getByLabelText(/请输入双因素认证码/);
    await waitFor(() => expect(input).toHaveFocus());
    expect(session.getState().token).toBeNull();

    // Empty → inline message, nothing posted.
    await user.keyboard('{Enter}');
    // The message repeats the label's text (1.3.9 wording): the field turns invalid and describes it.
    await waitFor(() => expect(input).toHaveAttribute('aria-invalid', 'true'));
    expect(input).toHaveAccessibleDescription('请输入双因素认证码');
    expect(within(dialog).getAllByText('请输入双因素认证码')).toHaveLength(2);
    expect(api.callsTo('POST /login')).toHaveLength(1);

    await user.type(input, '123456{Enter}');
    await waitFor(() => expect(location().pathname).toBe('/dashboard'));
    expect(api.callsTo('POST /login').map((c) => c.body)).toEqual([
      { username: 'admin', password: 'secret-1', remember: false },
      { username: 'admin', password: 'secret-1', remember: false, totp: '123456' },
    ]);
    expect(session.getState().token).toBe('tok-2fa');
  });

  it('a wrong two-factor code shows the server message in the dialog, once, and keeps it open', async () => {
    const { user, api, eventsOf, session } = await renderPlugin(login, {
      session: signedOut,
      api: {
        'POST /login': (req: FakeRequest) =>
          (req.body as { totp?: string }).totp ? reply.envelope(-1, '您输入双因素认证授权码不正确', 2) : reply.envelope(100, ''),
      },
    });
    await fill(user, 'admin', 'secret-1');
    await user.click(await screen.findByRole('button', { name: '登录' }));
    const dialog = await screen.findByRole('dialog', { name: '双因素认证' }, SLOW);
    await user.type(within(dialog).getByLabelText(/请输入双因素认证码/), '000000{Enter}');
    expect(await within(dialog).findByText('您输入双因素认证授权码不正确')).toBeInTheDocument();
    expect(screen.getAllByText('您输入双因素认证授权码不正确')).toHaveLength(1);
    expect(eventsOf('notify')).toEqual([]);
    expect(api.callsTo('POST /login')).toHaveLength(2);
    expect(session.getState().token).toBeNull();
  });

  it('a wrong password shows the server message inline exactly once (no toast) and stays on /login', async () => {
    const { user, eventsOf, location, session } = await renderPlugin(login, {
      session: signedOut,
      api: { 'POST /login': reply.envelope(-1, '您输入的账号或密码不正确', 2) },
    });
    await fill(user, 'admin', 'wrong');
    await user.click(await screen.findByRole('button', { name: '登录' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('您输入的账号或密码不正确');
    expect(screen.getAllByText('您输入的账号或密码不正确')).toHaveLength(1);
    expect(eventsOf('notify')).toEqual([]);
    expect(location().pathname).toBe('/login');
    expect(session.getState().token).toBeNull();
    expect(screen.getByRole('button', { name: '登录' })).toBeEnabled();
  });

  it('while the log-in is pending, the button is disabled and says so (no spinner)', async () => {
    let answer: (value: unknown) => void = () => undefined;
    const pending = new Promise((resolve) => {
      answer = resolve;
    });
    const { user } = await renderPlugin(login, { session: signedOut, api: { 'POST /login': () => pending } });
    await fill(user, 'admin', 'pw');
    await user.click(await screen.findByRole('button', { name: '登录' }));
    expect(await screen.findByRole('button', { name: '登录中…' })).toBeDisabled();
    answer(reply.envelope(-1, '您输入的账号或密码不正确'));
    expect(await screen.findByRole('alert')).toHaveTextContent('您输入的账号或密码不正确');
    expect(screen.getByRole('button', { name: '登录' })).toBeEnabled();
  });

  it('shows the lock-out and disabled-account refusals', async () => {
    const { user, api } = await renderPlugin(login, {
      session: signedOut,
      api: { 'POST /login': reply.envelope(-1, '登录失败次数过多，请等待5分钟后再试') },
    });
    await fill(user, 'admin', 'wrong');
    await user.click(await screen.findByRole('button', { name: '登录' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('登录失败次数过多，请等待5分钟后再试');
    api.on({ 'POST /login': reply.envelope(-1, '该账户已停用') });
    await user.click(await screen.findByRole('button', { name: '登录' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('该账户已停用'));
    expect(screen.queryByText('登录失败次数过多，请等待5分钟后再试')).toBeNull();
  });

  it('a network failure is shown inline too', async () => {
    const { user } = await renderPlugin(login, { session: signedOut, api: { 'POST /login': reply.networkError() } });
    await fill(user, 'admin', 'pw');
    await user.click(await screen.findByRole('button', { name: '登录' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('网络异常');
  });

  it('speaks English after switching the language', async () => {
    const { user } = await renderPlugin(login, { session: signedOut });
    await user.click(within(screen.getByRole('group', { name: '语言' })).getByRole('button', { name: 'English' }));
    await user.click(await screen.findByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Please enter your username')).toBeInTheDocument();
    expect(screen.getByText('Please enter your password')).toBeInTheDocument();
  });
});
