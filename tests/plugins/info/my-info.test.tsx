import { expectValidPlugin, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import info from '../../../plugins/info';

const ann = { id: 'u2', username: 'ann', nickname: 'Ann', type: 'user', enableTotp: false, roles: [], menus: [] as string[] };
const asUser = { user: { id: 'u2', username: 'ann', nickname: 'Ann', type: 'user', menus: [] } };

describe('info plugin: 个人中心 in the portal (/my-info)', () => {
  it('registers the personal centre in both layouts, nothing else', async () => {
    await expectValidPlugin(info);
    expect(info.pages.map((p) => p.path)).toEqual(['/info', '/my-info']);
  });

  it('renders the personal centre in the user layout for a type-user session', async () => {
    const { api } = await renderPlugin(info, { session: asUser, route: '/my-info', api: { 'GET /account/info': ann } });
    const layout = screen.getByTestId('core.user-layout');
    const nav = within(layout).getByRole('navigation', { name: '个人导航' });
    expect(within(nav).getByRole('button', { name: '个人中心' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByTestId('core.admin-layout')).toBeNull();
    expect(within(layout).getByRole('tablist', { name: '个人中心选项' })).toBeInTheDocument();
    expect(await screen.findByText('普通用户')).toBeInTheDocument();
    expect(screen.getByText('ann')).toBeInTheDocument();
    expect(api.callsTo('GET /account/info')).toHaveLength(1);
  });

  it('a user changes the password and lands on /login signed out', async () => {
    const { user, api, session, location, eventsOf } = await renderPlugin(info, {
      session: asUser,
      route: '/my-info?activeKey=password',
      api: { 'POST /account/change-password': null },
    });
    await user.type(screen.getByLabelText(/原始密码/), 'old');
    await user.type(screen.getByLabelText(/新的密码/), 'brand-new');
    await user.type(screen.getByLabelText(/确认密码/), 'brand-ne');
    expect(screen.getByText('两次输入的密码不一致')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '提交' })).toBeDisabled();
    await user.type(screen.getByLabelText(/确认密码/), 'w');
    await user.click(await screen.findByRole('button', { name: '提交' }));
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(api.callsTo('POST /account/change-password').map((c) => c.body)).toEqual([{ oldPassword: 'old', newPassword: 'brand-new' }]);
    expect(eventsOf('notify')).toEqual([{ intent: 'success', message: '密码修改成功，即将跳转至登录页面' }]);
    expect(session.getState().token).toBeNull();
  });

  it('a user enables TOTP from the portal and the session user is refreshed', async () => {
    let enabled = false;
    const { user, api, session } = await renderPlugin(info, {
      session: asUser,
      route: '/my-info?activeKey=totp',
      api: {
        'GET /account/info': () => ({ ...ann, enableTotp: enabled }),
        'GET /account/reload-totp': { qr: 'iVBORw0KGgo=', secret: 'JBSWY3DPEHPK3PXP' },
        'POST /account/confirm-totp': () => {
          enabled = true;
          return null;
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: '去开启' }));
    expect(await screen.findByTestId('info.totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    await user.type(screen.getByLabelText(/^TOTP/), '112233');
    await user.click(await screen.findByRole('button', { name: '确认' }));
    expect(await screen.findByText('您已成功开启双因素认证!')).toBeInTheDocument();
    expect(api.callsTo('POST /account/confirm-totp').map((c) => c.body)).toEqual([{ totp: '112233', secret: 'JBSWY3DPEHPK3PXP' }]);
    expect(session.getState().user).toMatchObject({ username: 'ann', type: 'user', enableTotp: true });
  });

  it('speaks English', async () => {
    await renderPlugin(info, { session: asUser, lng: 'en-US', route: '/my-info?activeKey=token', api: { 'GET /account/access-token': { id: '', userId: '', token: '', created: '0001-01-01 00:00:00' } } });
    expect(await screen.findByText('You have no access token yet.')).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'User navigation' })).getByRole('button', { name: 'My account' })).toBeInTheDocument();
  });
});
