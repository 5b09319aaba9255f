import { definePlugin } from '@/core';
import { expectValidPlugin, type FakeRequest, reply, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import info from '../../../plugins/info';

// Fluent dialogs animate in; give a loaded parallel run some room.
const SLOW = { timeout: 5000 };
const ZERO_TOKEN = { id: '', userId: '', token: '', created: '0001-01-01 00:00:00' };
const admin = (extra: Record<string, unknown> = {}) => ({
  id: 'u1',
  username: 'admin',
  nickname: '超级管理员',
  type: 'admin',
  enableTotp: false,
  roles: ['r1', 'r2'],
  menus: ['info'],
  ...extra,
});

// Two other top-level pages, to check where 个人中心 lands in the side menu.
const Empty = () => null;
const topLevel = definePlugin({
  id: 'fx-top',
  pages: [
    { menuKey: null, group: 'setting', path: '/setting', page: 'Empty', labelKey: 'setting', layout: 'admin' },
    { menuKey: null, group: 'dashboard', path: '/dashboard', page: 'Empty', labelKey: 'dashboard', layout: 'admin' },
  ],
  load: () => Promise.resolve({ Empty }),
  locales: { 'zh-CN': { setting: '系统设置', dashboard: '控制面板' }, 'en-US': { setting: 'Settings', dashboard: 'Dashboard' } },
});

describe('info plugin (admin 个人中心)', () => {
  it('is a valid plugin', async () => {
    await expectValidPlugin(info);
  });

  it('is the last top-level entry of the admin menu and opens on 基本信息', async () => {
    const { api } = await renderPlugin(info, {
      extraPlugins: [topLevel],
      session: { user: { menus: ['info', 'setting', 'dashboard'] } },
      api: { 'GET /account/info': admin() },
    });
    const tree = screen.getByRole('tree', { name: '主菜单' });
    const top = within(tree).getAllByRole('treeitem').map((item) => item.getAttribute('data-fui-tree-item-value'));
    expect(top).toEqual(['/dashboard', '/setting', '/info']);
    expect(within(tree).getByText('个人中心')).toBeInTheDocument();
    const tabs = within(screen.getByRole('tablist', { name: '个人中心选项' })).getAllByRole('tab');
    expect(tabs).toHaveLength(4);
    for (const [i, name] of ['基本信息', '修改密码', '两步认证', '授权令牌'].entries()) expect(tabs[i]).toHaveAccessibleName(name);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('超级管理员')).toBeInTheDocument();
    expect(screen.getByText('管理员')).toBeInTheDocument();
    expect(screen.getByText('未开启')).toBeInTheDocument();
    expect(screen.getByText('2')).toBeInTheDocument();
    expect(api.callsTo('GET /account/info')).toHaveLength(1);
  });

  it('shows a failed /account/info as a failure with 重试, not as an account of empty fields', async () => {
    let answer: unknown = reply.http(500, { message: '服务器错误' });
    const { user } = await renderPlugin(info, {
      session: { user: { menus: ['info'] } },
      api: { 'GET /account/info': () => answer },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('加载失败');
    expect(alert).toHaveTextContent('服务器错误');
    expect(screen.queryByText('-')).toBeNull();
    answer = admin();
    await user.click(within(alert).getByRole('button', { name: '重试' }));
    expect(await screen.findByText('超级管理员')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows 403 to an admin without the info key', async () => {
    await renderPlugin(info, { session: { user: { type: 'admin', menus: ['dashboard'] } } });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
    expect(screen.queryByRole('tablist')).toBeNull();
  });

  describe('修改密码', () => {
    it('flags differing passwords live and keeps submit disabled until they match', async () => {
      const { user, api } = await renderPlugin(info, { route: '/info?activeKey=password', api: { 'POST /account/change-password': null } });
      const submit = screen.getByRole('button', { name: '提交' });
      expect(submit).toBeDisabled();
      await user.type(screen.getByLabelText(/原始密码/), 'old-pass');
      await user.type(screen.getByLabelText(/新的密码/), 'new-pass-1');
      await user.type(screen.getByLabelText(/确认密码/), 'new-pass-2');
      expect(screen.getByText('两次输入的密码不一致')).toBeInTheDocument();
      expect(submit).toBeDisabled();
      await user.clear(screen.getByLabelText(/确认密码/));
      await user.type(screen.getByLabelText(/确认密码/), 'new-pass-1');
      expect(screen.queryByText('两次输入的密码不一致')).toBeNull();
      expect(submit).toBeEnabled();
      // More than 100 characters: refused before the server sees it.
      await user.clear(screen.getByLabelText(/新的密码/));
      await user.click(screen.getByLabelText(/新的密码/));
      await user.paste('x'.repeat(101));
      expect(screen.getByText('密码长度不能超过100个字符')).toBeInTheDocument();
      expect(submit).toBeDisabled();
      expect(api.callsTo('POST /account/change-password')).toHaveLength(0);
    });

    it('says on the field why a new password would be refused: under eight characters, or only spaces', async () => {
      const { user, api } = await renderPlugin(info, { route: '/info?activeKey=password', api: { 'POST /account/change-password': null } });
      await user.type(screen.getByLabelText(/原始密码/), 'old-pass');
      for (const [typed, why] of [['short', '密码长度不能少于8位'], ['        ', '新的密码不能只有空格']] as const) {
        await user.clear(screen.getByLabelText(/新的密码/));
        await user.clear(screen.getByLabelText(/确认密码/));
        await user.type(screen.getByLabelText(/新的密码/), typed);
        await user.type(screen.getByLabelText(/确认密码/), typed);
        await user.click(screen.getByRole('button', { name: '提交' }));
        expect(await screen.findByText(why)).toBeInTheDocument();
      }
      expect(api.callsTo('POST /account/change-password')).toHaveLength(0);
    });

    it('changes the password, says so, drops the session and goes to /login', async () => {
      const { user, api, eventsOf, session, location } = await renderPlugin(info, {
        route: '/info?activeKey=password',
        api: { 'POST /account/change-password': null },
      });
      await user.type(screen.getByLabelText(/原始密码/), 'old-pass');
      await user.type(screen.getByLabelText(/新的密码/), 'new-pass-1');
      await user.type(screen.getByLabelText(/确认密码/), 'new-pass-1');
      await user.click(await screen.findByRole('button', { name: '提交' }));
      await waitFor(() => expect(location().pathname).toBe('/login'));
      expect(api.callsTo('POST /account/change-password').map((c) => c.body)).toEqual([{ oldPassword: 'old-pass', newPassword: 'new-pass-1' }]);
      expect(eventsOf('notify')).toEqual([{ intent: 'success', message: '密码修改成功，即将跳转至登录页面' }]);
      expect(session.getState().token).toBeNull();
      expect(session.getState().user).toBeNull();
    });

    it('keeps the session and the page when the server refuses (its message is toasted)', async () => {
      const { user, eventsOf, session, location } = await renderPlugin(info, {
        route: '/info?activeKey=password',
        api: { 'POST /account/change-password': reply.envelope(-1, '您输入的原密码不正确') },
      });
      await user.type(screen.getByLabelText(/原始密码/), 'wrong');
      await user.type(screen.getByLabelText(/新的密码/), 'new-pass-1');
      await user.type(screen.getByLabelText(/确认密码/), 'new-pass-1');
      await user.click(await screen.findByRole('button', { name: '提交' }));
      await waitFor(() => expect(eventsOf('notify')).toEqual([{ intent: 'error', message: '您输入的原密码不正确' }]));
      expect(location().pathname).toBe('/info');
      expect(session.getState().token).toBe('test-token');
      expect(screen.getByRole('button', { name: '提交' })).toBeEnabled();
    });
  });

  describe('两步认证', () => {
    it('enables TOTP: reload → QR and secret → required code → confirm {totp, secret} → success, session refreshed', async () => {
      let enabled = false;
      let secret = 'JBSWY3DPEHPK3PXP';
      const { user, api, eventsOf, session } = await renderPlugin(info, {
        route: '/info?activeKey=totp',
        api: {
          'GET /account/info': () => admin({ enableTotp: enabled }),
          'GET /account/reload-totp': () => ({ qr: 'iVBORw0KGgo=', secret }),
          'POST /account/confirm-totp': () => {
            enabled = true;
            return null;
          },
        },
      });
      expect(await screen.findByText('您还未开启双因素认证！')).toBeInTheDocument();
      await user.click(await screen.findByRole('button', { name: '去开启' }));
      const qr = await screen.findByRole('img', { name: '双因素认证二维码，请用认证器 App 扫描' });
      expect(qr).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
      expect(screen.getByTestId('info.totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');

      // 重新加载 fetches a new secret.
      secret = 'KRSXG5CTMVRXEZLU';
      await user.click(await screen.findByRole('button', { name: '重新加载' }));
      await waitFor(() => expect(screen.getByTestId('info.totp-secret')).toHaveTextContent('KRSXG5CTMVRXEZLU'));
      expect(api.callsTo('GET /account/reload-totp')).toHaveLength(2);

      await user.click(await screen.findByRole('button', { name: '确认' }));
      expect(await screen.findByText('请输入双因素认证APP中显示的授权码')).toBeInTheDocument();
      expect(api.callsTo('POST /account/confirm-totp')).toHaveLength(0);

      await user.type(screen.getByLabelText(/^TOTP/), '654321');
      await user.click(await screen.findByRole('button', { name: '确认' }));
      expect(await screen.findByText('您已成功开启双因素认证!')).toBeInTheDocument();
      expect(api.callsTo('POST /account/confirm-totp').map((c) => c.body)).toEqual([{ totp: '654321', secret: 'KRSXG5CTMVRXEZLU' }]);
      expect(eventsOf('notify')).toEqual([{ intent: 'success', message: 'TOTP启用成功' }]);
      expect(session.getState().user?.enableTotp).toBe(true);
    });

    it('a wrong code shows the server error and stays on the binding form', async () => {
      const { user, api, eventsOf, session } = await renderPlugin(info, {
        route: '/info?activeKey=totp',
        api: {
          'GET /account/info': admin(),
          'GET /account/reload-totp': { qr: 'iVBORw0KGgo=', secret: 'JBSWY3DPEHPK3PXP' },
          'POST /account/confirm-totp': reply.envelope(-1, 'TOTP 验证失败，请重试'),
        },
      });
      await user.click(await screen.findByRole('button', { name: '去开启' }));
      await screen.findByTestId('info.totp-secret');
      await user.type(screen.getByLabelText(/^TOTP/), '000000');
      await user.click(await screen.findByRole('button', { name: '确认' }));
      await waitFor(() => expect(eventsOf('notify')).toEqual([{ intent: 'error', message: 'TOTP 验证失败，请重试' }]));
      expect(api.callsTo('POST /account/confirm-totp')).toHaveLength(1);
      expect(screen.getByRole('button', { name: '确认' })).toBeEnabled();
      expect(screen.queryByText('您已成功开启双因素认证!')).toBeNull();
      expect(api.callsTo('GET /account/info')).toHaveLength(1);
      expect(session.getState().user?.enableTotp).toBeUndefined();
    });

    it('unbinding asks first: cancel does nothing, confirm resets and says so', async () => {
      let enabled = true;
      const { user, api, eventsOf, session } = await renderPlugin(info, {
        route: '/info?activeKey=totp',
        api: {
          'GET /account/info': () => admin({ enableTotp: enabled }),
          'POST /account/reset-totp': () => {
            enabled = false;
            return '';
          },
        },
      });
      expect(await screen.findByText('您已成功开启双因素认证!')).toBeInTheDocument();
      await user.click(await screen.findByRole('button', { name: '解除绑定' }));
      let dialog = await screen.findByRole('alertdialog', { name: '您确认要解除双因素认证吗？' }, SLOW);
      expect(within(dialog).getByText('解除之后可能存在系统账号被暴力破解的风险。')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: '取消' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), SLOW);
      expect(api.callsTo('POST /account/reset-totp')).toHaveLength(0);
      expect(screen.getByText('您已成功开启双因素认证!')).toBeInTheDocument();

      await user.click(await screen.findByRole('button', { name: '解除绑定' }, SLOW));
      dialog = await screen.findByRole('alertdialog', { name: '您确认要解除双因素认证吗？' }, SLOW);
      await user.click(within(dialog).getByRole('button', { name: '确认' }));
      expect(await screen.findByText('您还未开启双因素认证！', {}, SLOW)).toBeInTheDocument();
      expect(api.callsTo('POST /account/reset-totp')).toHaveLength(1);
      expect(eventsOf('notify')).toEqual([{ intent: 'success', message: '双因素认证解除成功' }]);
      expect(session.getState().user?.enableTotp).toBe(false);
    });

    it('重新绑定 opens the binding form of an enabled account', async () => {
      const { user, api } = await renderPlugin(info, {
        route: '/info?activeKey=totp',
        api: { 'GET /account/info': admin({ enableTotp: true }), 'GET /account/reload-totp': { qr: 'iVBORw0KGgo=', secret: 'JBSWY3DPEHPK3PXP' } },
      });
      await user.click(await screen.findByRole('button', { name: '重新绑定' }));
      expect(await screen.findByTestId('info.totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
      await user.click(await screen.findByRole('button', { name: '取消' }));
      expect(await screen.findByText('您已成功开启双因素认证!')).toBeInTheDocument();
      expect(api.callsTo('GET /account/reload-totp')).toHaveLength(1);
    });
  });

  describe('授权令牌', () => {
    it('shows the hint of a token already shown once, with nothing to reveal or copy', async () => {
      await renderPlugin(info, {
        route: '/info?activeKey=token',
        api: { 'GET /account/access-token': { id: 't1', userId: 'u1', token: 'forever-…a1b2', created: '2026-05-01 10:00:00' } },
      });
      expect(await screen.findByTestId('info.token')).toHaveTextContent('forever-…a1b2');
      expect(screen.getByText(/令牌只在生成后显示一次/)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: '显示令牌' })).toBeNull();
      expect(screen.queryByRole('button', { name: '复制令牌' })).toBeNull();
      expect(screen.getByRole('button', { name: '重新生成' })).toBeInTheDocument();
    });

    it('creates, reveals, regenerates (after a confirm) and deletes (after a confirm) the token', async () => {
      let current = ZERO_TOKEN;
      let serial = 0;
      const { user, api, eventsOf } = await renderPlugin(info, {
        route: '/info?activeKey=token',
        api: {
          'GET /account/access-token': () => current,
          'POST /account/access-token': () => {
            serial += 1;
            current = { id: `t${serial}`, userId: 'u1', token: `forever-token-number-${serial}`, created: `2026-05-0${serial} 10:00:00` };
            return null;
          },
          'DELETE /account/access-token': () => {
            current = ZERO_TOKEN;
            return null;
          },
        },
      });
      expect(await screen.findByText('您还没有授权令牌。')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: '删除令牌' })).toBeNull();

      await user.click(await screen.findByRole('button', { name: '生成令牌' }));
      const value = await screen.findByTestId('info.token');
      expect(value).not.toHaveTextContent('forever-token-number-1');
      expect(value).toHaveTextContent(/-1$/);
      expect(screen.getByText('2026-05-01 10:00:00')).toBeInTheDocument();
      expect(eventsOf('notify')).toEqual([{ intent: 'success', message: '授权令牌已生成' }]);
      await user.click(await screen.findByRole('button', { name: '显示令牌' }));
      expect(screen.getByTestId('info.token')).toHaveTextContent('forever-token-number-1');
      await user.click(await screen.findByRole('button', { name: '隐藏令牌' }));
      expect(screen.getByTestId('info.token')).not.toHaveTextContent('forever-token-number-1');

      // Regenerate: cancel keeps the token, confirm replaces it.
      await user.click(await screen.findByRole('button', { name: '重新生成' }));
      let dialog = await screen.findByRole('alertdialog', { name: '您确认要重新生成授权令牌吗？' }, SLOW);
      expect(within(dialog).getByText('重新生成后，原有的授权令牌将立即失效。')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: '取消' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), SLOW);
      expect(api.callsTo('POST /account/access-token')).toHaveLength(1);
      await user.click(await screen.findByRole('button', { name: '重新生成' }, SLOW));
      dialog = await screen.findByRole('alertdialog', { name: '您确认要重新生成授权令牌吗？' }, SLOW);
      await user.click(within(dialog).getByRole('button', { name: '确认' }));
      await waitFor(() => expect(screen.getByText('2026-05-02 10:00:00')).toBeInTheDocument(), SLOW);
      await user.click(await screen.findByRole('button', { name: '显示令牌' }, SLOW));
      expect(screen.getByTestId('info.token')).toHaveTextContent('forever-token-number-2');
      expect(api.callsTo('POST /account/access-token')).toHaveLength(2);

      // Delete.
      await user.click(await screen.findByRole('button', { name: '删除令牌' }, SLOW));
      dialog = await screen.findByRole('alertdialog', { name: '您确认要删除授权令牌吗？' }, SLOW);
      await user.click(within(dialog).getByRole('button', { name: '确认' }));
      expect(await screen.findByText('您还没有授权令牌。', {}, SLOW)).toBeInTheDocument();
      expect(api.callsTo('DELETE /account/access-token')).toHaveLength(1);
      expect(eventsOf('notify').map((e) => e.message)).toEqual(['授权令牌已生成', '授权令牌已生成', '授权令牌已删除']);
    });

    it('copies the token to the clipboard', async () => {
      const { user, eventsOf } = await renderPlugin(info, {
        route: '/info?activeKey=token',
        api: { 'GET /account/access-token': { id: 't1', userId: 'u1', token: 'forever-abc-123', created: '2026-05-01 10:00:00' } },
      });
      await user.click(await screen.findByRole('button', { name: '复制令牌' }));
      await waitFor(() => expect(eventsOf('notify')).toEqual([{ intent: 'success', message: '已复制到剪贴板' }]));
      expect(await navigator.clipboard.readText()).toBe('forever-abc-123');
    });

    it('a failed create changes nothing and says nothing more than the client did', async () => {
      const { user, api, eventsOf } = await renderPlugin(info, {
        route: '/info?activeKey=token',
        api: {
          'GET /account/access-token': ZERO_TOKEN,
          'POST /account/access-token': (_: FakeRequest) => reply.envelope(-1, '创建失败'),
        },
      });
      await user.click(await screen.findByRole('button', { name: '生成令牌' }));
      await waitFor(() => expect(api.callsTo('GET /account/access-token')).toHaveLength(2));
      expect(eventsOf('notify')).toEqual([{ intent: 'error', message: '创建失败' }]);
      expect(screen.getByText('您还没有授权令牌。')).toBeInTheDocument();
    });
  });
});
