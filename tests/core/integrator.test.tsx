import { buildCatalogue, catalogueTree, type GroupKey } from '@/shared/manifest';
import { renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import enCore from '../../locales/en-US/core.json';
import zhCore from '../../locales/zh-CN/core.json';
import identity from '../../plugins/identity';
import identityManifest from '../../plugins/identity/manifest';
import reports from '../fixtures/integrator';
import reportsManifest from '../fixtures/integrator/manifest';

vi.setConfig({ testTimeout: 30_000 });

// GET /menus as the server answers it: the same derivation (shared/manifest.ts) over the same manifests, group labels
// from core's locale files (tests/server/integrator.test.ts checks the real server's answer).
const groups = (key: GroupKey) => ({ 'zh-CN': zhCore.nav.groups[key], 'en-US': enCore.nav.groups[key] });
const menus = catalogueTree(buildCatalogue([identityManifest, reportsManifest]), groups);

describe("an integrator's plugin in the console", () => {
  it('gets its page into the menu, gated by its own keys', async () => {
    const { unmount } = await renderPlugin(reports, { session: { user: { menus: ['report', 'report-share'] } } });
    expect(await screen.findByRole('heading', { name: '报表列表' })).toBeInTheDocument();
    expect(within(screen.getByRole('tree', { name: '主菜单' })).getByText('运维报表')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '分享' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '导出' })).toBeNull();
    unmount();
    await renderPlugin(reports, { session: { user: { menus: ['report-export'] } } });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
  });

  it('shows its page and both action keys in the role editor, and grants them in the role body', async () => {
    const { user, api } = await renderPlugin(identity, {
      route: '/role',
      extraPlugins: [reports],
      api: { 'GET /roles/paging': { total: 0, items: [] }, 'GET /menus': menus, 'POST /roles': '' },
    });
    await user.click(await screen.findByRole('button', { name: '新建' }));
    const dialog = within(await screen.findByRole('dialog', { name: '新建角色' }));
    await user.type(dialog.getByRole('textbox', { name: /名称/ }), '报表员');
    const item = (label: string) => dialog.getByRole('treeitem', { name: label });
    // The roots start open; open the page's branch.
    await waitFor(() => expect(item('系统运维')).toHaveAttribute('aria-expanded', 'true'));
    await user.click(dialog.getByText('运维报表'));
    expect(await dialog.findByText('导出报表')).toBeInTheDocument();
    expect(dialog.getByText('分享报表')).toBeInTheDocument();
    await user.click(within(item('导出报表')).getAllByRole('checkbox')[0] as HTMLElement);
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /roles')).toHaveLength(1));
    expect(api.callsTo('POST /roles')[0]?.body).toEqual({
      name: '报表员',
      menus: [
        { menuId: 'ops', checked: false },
        { menuId: 'report', checked: false },
        { menuId: 'report-export', checked: true },
      ],
    });
  });
});
