import { renderPlugin, reply } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import asset from '../../../plugins/asset';
import { asAdmin, LISTS, page, web } from './fixtures';

vi.setConfig({ testTimeout: 30_000 });

const record = {
  id: 'a1',
  name: 'web-01',
  protocol: 'ssh',
  ip: '10.0.0.1',
  port: 22,
  accountType: 'private-key',
  username: 'root',
  accessGatewayId: 'g1',
  description: '前端服务器',
  tags: 'prod,web',
  active: false,
  activeMessage: 'connection refused',
  created: '2026-11-01 10:00:00',
  lastAccessTime: '0001-01-01 00:00:00',
  owner: 'u1',
  ownerName: 'Ann',
  passwordSet: false,
  privateKeySet: true,
  passphraseSet: false,
  socksProxyPasswordSet: false,
};

/** The value shown for a label of the info list. */
function shownValue(label: string) {
  const term = screen.getByText(`${label}:`, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}

describe('asset detail', () => {
  it('opens from the list, shows the info tab with its fields, the tab in the URL and the title in the breadcrumb', async () => {
    const { user, location, api } = await renderPlugin(asset, {
      route: '/asset',
      session: asAdmin(),
      api: { ...LISTS, 'GET /assets/paging': page(), 'GET /assets/:id': record },
    });
    await user.click(await screen.findByRole('link', { name: 'web-01' }));
    await waitFor(() => expect(location().pathname).toBe('/asset/a1'));
    expect(await screen.findByRole('tab', { name: '基本信息' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByRole('tab').map((tab) => tab.querySelector('.fui-Tab__content')?.textContent)).toEqual(['基本信息', '授权的用户', '授权的用户组']);
    expect(within(screen.getByRole('navigation', { name: '面包屑导航' })).getByText('资产详情')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'web-01' })).toBeInTheDocument();

    expect(shownValue('资产名称')).toHaveTextContent('web-01');
    expect(shownValue('协议')).toHaveTextContent('SSH');
    expect(shownValue('IP')).toHaveTextContent('10.0.0.1');
    expect(shownValue('端口')).toHaveTextContent('22');
    expect(within(shownValue('标签')).getByText('prod')).toBeInTheDocument();
    expect(within(shownValue('标签')).getByText('web')).toBeInTheDocument();
    expect(shownValue('账户类型')).toHaveTextContent('密钥');
    await waitFor(() => expect(shownValue('接入网关')).toHaveTextContent('跳板机'));
    expect(shownValue('所有者')).toHaveTextContent('Ann');
    expect(shownValue('状态')).toHaveTextContent('不可用');
    expect(shownValue('创建时间')).toHaveTextContent('2026-11-01 10:00:00');
    expect(shownValue('最后接入时间')).toHaveTextContent(/^-$/);
    expect(shownValue('备注')).toHaveTextContent('前端服务器');
    expect(api.calls.filter((c) => c.path === '/assets/a1').map((c) => c.method)).toEqual(['GET']);
  });

  it('opens on ?activeKey=info from the row’s 详情 (alone, not in a ⋯ menu), and shows the gateway id to a user who may not list gateways', async () => {
    const { user, location, api } = await renderPlugin(asset, {
      route: '/asset',
      session: asAdmin(['asset', 'asset-detail']),
      api: { 'GET /tags': LISTS['GET /tags'], 'GET /assets/paging': page([web]), 'GET /assets/:id': record },
    });
    await user.click(await screen.findByRole('link', { name: '详情' }));
    await waitFor(() => expect(location()).toMatchObject({ pathname: '/asset/a1', search: '?activeKey=info' }));
    expect(await screen.findByRole('tab', { name: '基本信息' })).toBeInTheDocument();
    expect(shownValue('接入网关')).toHaveTextContent('g1');
    expect(api.callsTo('GET /access-gateways')).toHaveLength(0);
  });

  it('needs the asset-detail key, and says why an asset cannot be shown', async () => {
    const view = await renderPlugin(asset, { route: '/asset/a1', session: asAdmin(['asset']) });
    expect(await screen.findByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
    view.unmount();

    await renderPlugin(asset, { route: '/asset/gone', session: asAdmin(), api: { 'GET /assets/:id': reply.envelope(-1, '资产不存在：gone') } });
    expect(await screen.findByRole('alert')).toHaveTextContent('资产不存在：gone');
    expect(screen.getByRole('link', { name: '返回列表' })).toHaveAttribute('href', '/asset');
  });

  it('shows the pinned host key and lets an editor ask the server to trust a new one, then shows it is recorded at the next login (issue 28)', async () => {
    const pinned = 'SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU';
    let hostKey = pinned;
    const { user, api } = await renderPlugin(asset, {
      route: '/asset/a1',
      session: asAdmin(),
      api: {
        ...LISTS,
        'GET /assets/:id': () => ({ ...record, hostKey }),
        'POST /assets/:id/trust-host-key': () => {
          hostKey = '';
          return { hostKey: '' };
        },
      },
    });
    await waitFor(() => expect(shownValue('主机密钥')).toHaveTextContent(pinned));
    await user.click(within(shownValue('主机密钥')).getByRole('button', { name: '信任新的主机密钥' }));
    await user.click(await screen.findByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /assets/:id/trust-host-key')).toHaveLength(1));
    await waitFor(() => expect(shownValue('主机密钥')).toHaveTextContent('尚未记录（首次登录时记录）'));
    expect(within(shownValue('主机密钥')).queryByRole('button')).toBeNull();
  });

  it('shows the host key but no trust action without asset-edit', async () => {
    await renderPlugin(asset, { route: '/asset/a1', session: asAdmin(['asset', 'asset-detail']), api: { 'GET /assets/:id': { ...record, hostKey: 'SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU' } } });
    await waitFor(() => expect(shownValue('主机密钥')).toHaveTextContent('SHA256:'));
    expect(within(shownValue('主机密钥')).queryByRole('button')).toBeNull();
  });
});
