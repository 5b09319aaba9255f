import { expectValidPlugin, reply, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import strategy from '../../../plugins/strategy';

vi.setConfig({ testTimeout: 30_000 });

const OFF = { upload: false, download: false, delete: false, rename: false, edit: false, createDir: false, copy: false, paste: false };
const readOnly = { id: 's1', name: '只读', ...OFF, download: true, copy: true, created: '2026-11-01 10:00:00' };
const full = { id: 's2', name: '全部', upload: true, download: true, delete: true, rename: true, edit: true, createDir: true, copy: true, paste: true, created: '2026-11-02 10:00:00' };
const page = { total: 2, items: [readOnly, full] };
const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };
const FLAG_LABELS = ['上传', '下载', '删除', '重命名', '编辑', '创建文件夹', '复制', '粘贴'];
const admin = (menus: string[]) => ({ user: { id: 'me', type: 'admin', menus } });

const row = (name: string) => {
  const tr = screen.getByText(name, { selector: 'td, td *' }).closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return within(tr);
};

describe('strategy plugin: list', () => {
  it('is a valid plugin with its page under 授权策略 and a detail route', async () => {
    await expectValidPlugin(strategy);
    // A keyed page's order is its manifest entry's (declared once).
    const orderOf = (key: string | null | undefined) => strategy.manifest?.menus.find((m) => m.key === key)?.order;
    expect(strategy.pages.map((p) => [p.path, p.menuKey, orderOf(p.menuKey)])).toEqual([
      ['/strategy', 'strategy', 2],
      ['/authorisation', 'authorisation', 1],
    ]);
    expect(strategy.pages[0]?.children?.[0]).toMatchObject({ path: ':strategyId', menuKey: 'strategy-detail' });
  });

  it('lists strategies with one 开启/关闭 badge per flag, and searches by name', async () => {
    const { user, api } = await renderPlugin(strategy, { api: { 'GET /strategies/paging': page } });
    await screen.findByRole('link', { name: '只读' });
    expect(screen.getByRole('tree', { name: '主菜单' })).toHaveTextContent('授权策略');
    expect(api.callsTo('GET /strategies/paging')[0]?.query).toEqual(FIRST);
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(expect.arrayContaining(['名称', ...FLAG_LABELS, '创建时间']));
    // The flags in the column order: only 下载 and 复制 on for 只读.
    const cells = row('只读')
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.filter((c) => c === '开启' || c === '关闭')).toEqual(['关闭', '开启', '关闭', '关闭', '关闭', '关闭', '开启', '关闭']);
    expect(row('全部').getAllByText('开启')).toHaveLength(8);
    expect(row('只读').getByText('2026-11-01 10:00:00')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: '名称' }), '只');
    await user.click(await screen.findByRole('button', { name: '查询' }));
    await waitFor(() => expect(api.callsTo('GET /strategies/paging').at(-1)?.query).toEqual({ ...FIRST, name: '只' }));
  });

  it('hides every action and the detail link without their keys, shows each with its key', async () => {
    const view = await renderPlugin(strategy, { session: admin(['strategy']), api: { 'GET /strategies/paging': page } });
    await screen.findByText('只读');
    expect(screen.queryByRole('link', { name: '只读' })).toBeNull();
    for (const name of ['新建', '编辑', '删除']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByRole('link', { name: '详情' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: '全选当前页' })).toBeNull();
    view.unmount();

    const second = await renderPlugin(strategy, { session: admin(['strategy', 'strategy-edit']), api: { 'GET /strategies/paging': page } });
    await screen.findByText('只读');
    expect(row('只读').getByRole('button', { name: '编辑' })).toBeInTheDocument();
    for (const name of ['新建', '删除']) expect(screen.queryByRole('button', { name })).toBeNull();
    second.unmount();

    await renderPlugin(strategy, {
      session: admin(['strategy', 'strategy-add', 'strategy-del', 'strategy-detail']),
      api: { 'GET /strategies/paging': page },
    });
    expect(await screen.findByRole('link', { name: '只读' })).toHaveAttribute('href', '/strategy/s1');
    expect(screen.getByRole('button', { name: '新建' })).toBeInTheDocument();
    expect(row('只读').getByRole('link', { name: '详情' })).toHaveAttribute('href', '/strategy/s1');
    expect(row('只读').getByRole('button', { name: '删除' })).toBeInTheDocument();
    expect(row('只读').queryByRole('button', { name: '编辑' })).toBeNull();
  });

  it('shows 403 without the strategy key', async () => {
    await renderPlugin(strategy, { session: admin([]) });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
  });
});

describe('strategy plugin: form', () => {
  it('creates a strategy: name required, eight switches all off, the body carries every flag as a boolean', async () => {
    const { user, api, eventsOf } = await renderPlugin(strategy, {
      api: { 'GET /strategies/paging': page, 'POST /strategies': { id: 's3' } },
    });
    await user.click(await screen.findByRole('button', { name: '新建' }));
    const dialog = within(await screen.findByRole('dialog', { name: '新建授权策略' }));
    const switches = dialog.getAllByRole('switch');
    expect(switches).toHaveLength(8);
    for (const label of FLAG_LABELS) expect(dialog.getByRole('switch', { name: label })).not.toBeChecked();
    expect(dialog.getByRole('textbox', { name: /名称/ })).toHaveAttribute('placeholder', '授权策略名称');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入名称')).toBeInTheDocument();
    expect(api.callsTo('POST /strategies')).toHaveLength(0);

    await user.type(dialog.getByRole('textbox', { name: /名称/ }), ' 上传与粘贴 ');
    await user.click(dialog.getByRole('switch', { name: '上传' }));
    await user.click(dialog.getByRole('switch', { name: '创建文件夹' }));
    await user.click(dialog.getByRole('switch', { name: '粘贴' }));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /strategies')).toHaveLength(1));
    expect(api.callsTo('POST /strategies')[0]?.body).toEqual({ name: '上传与粘贴', ...OFF, upload: true, createDir: true, paste: true });
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '保存成功' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says each switch’s state as 允许 / 禁止 and what 复制 / 粘贴 do with the clipboard, in both languages', async () => {
    const { user, unmount } = await renderPlugin(strategy, { api: { 'GET /strategies/paging': page } });
    await user.click(await screen.findByRole('button', { name: '新建' }));
    const dialog = within(await screen.findByRole('dialog', { name: '新建授权策略' }));
    const stateOf = (name: string) => dialog.getByRole('switch', { name }).parentElement?.textContent;
    for (const label of FLAG_LABELS) expect(stateOf(label)).toBe('禁止');
    await user.click(dialog.getByRole('switch', { name: '上传' }));
    expect(stateOf('上传')).toBe('允许');
    expect(dialog.getByRole('switch', { name: '复制' })).toHaveAccessibleDescription('把远程会话中选中的文字复制到浏览器所在电脑的剪贴板。只由浏览器执行，服务器不检查：能看到屏幕的人总能抄下文字');
    expect(dialog.getByRole('switch', { name: '粘贴' })).toHaveAccessibleDescription('把浏览器所在电脑剪贴板中的文字粘贴到远程会话。只由浏览器执行，服务器不检查：同样的文字仍可逐字输入');
    unmount();

    const en = await renderPlugin(strategy, { api: { 'GET /strategies/paging': page }, lng: 'en-US' });
    await en.user.click(await screen.findByRole('button', { name: 'New' }));
    const english = within(await screen.findByRole('dialog', { name: 'New strategy' }));
    expect(english.getByRole('switch', { name: 'Paste' }).parentElement?.textContent).toBe('Forbidden');
    expect(english.getByRole('switch', { name: 'Copy' })).toHaveAccessibleDescription(/clipboard of the computer running the browser/);
  });

  it('keeps 编辑 and 下载 together: edit switches download on, download off switches edit off', async () => {
    const { user } = await renderPlugin(strategy, { api: { 'GET /strategies/paging': page } });
    await user.click(await screen.findByRole('button', { name: '新建' }));
    const dialog = within(await screen.findByRole('dialog', { name: '新建授权策略' }));
    expect(dialog.getByText('编辑需要先开启下载')).toBeInTheDocument();
    await user.click(dialog.getByRole('switch', { name: '编辑' }));
    expect(dialog.getByRole('switch', { name: '下载' })).toBeChecked();
    await user.click(dialog.getByRole('switch', { name: '下载' }));
    expect(dialog.getByRole('switch', { name: '编辑' })).not.toBeChecked();
  });

  it('edits a strategy with PUT on its id, the switches loaded from it; a refusal stays in the dialog', async () => {
    const { user, api } = await renderPlugin(strategy, {
      api: {
        'GET /strategies/paging': page,
        'GET /strategies/:id': readOnly,
        'PUT /strategies/:id': reply.envelope(-1, '授权策略名称已存在：全部'),
      },
    });
    await screen.findByText('只读');
    await user.click(row('只读').getByRole('button', { name: '编辑' }));
    const dialog = within(await screen.findByRole('dialog', { name: '更新授权策略' }));
    await waitFor(() => expect(dialog.getByRole('textbox', { name: /名称/ })).toHaveValue('只读'));
    expect(dialog.getByRole('switch', { name: '下载' })).toBeChecked();
    expect(dialog.getByRole('switch', { name: '复制' })).toBeChecked();
    expect(dialog.getByRole('switch', { name: '上传' })).not.toBeChecked();
    await user.click(dialog.getByRole('switch', { name: '复制' }));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('PUT /strategies/:id')).toHaveLength(1));
    expect(api.callsTo('PUT /strategies/:id')[0]).toMatchObject({ path: '/strategies/s1', body: { name: '只读', ...OFF, download: true } });
    expect(await dialog.findByRole('alert')).toHaveTextContent('授权策略名称已存在：全部');
  });
});

describe('strategy plugin: delete', () => {
  it('deletes after confirming; the server refusing a strategy in use is shown and the row stays', async () => {
    const { user, api, eventsOf } = await renderPlugin(strategy, {
      api: { 'GET /strategies/paging': page, 'DELETE /strategies/:id': reply.envelope(-1, '授权策略正在使用中：只读') },
    });
    await screen.findByText('只读');
    await user.click(row('只读').getByRole('button', { name: '删除' }));
    const ask = within(await screen.findByRole('alertdialog'));
    await user.click(ask.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /strategies/:id').map((c) => c.path)).toEqual(['/strategies/s1']));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'error', message: '授权策略正在使用中：只读' }));
    expect(eventsOf('notify')).not.toContainEqual(expect.objectContaining({ intent: 'success' }));
    expect(screen.getByText('只读')).toBeInTheDocument();
  });

  it('cancelling the question deletes nothing; a batch delete sends the ids comma-joined', async () => {
    const { user, api } = await renderPlugin(strategy, { api: { 'GET /strategies/paging': page, 'DELETE /strategies/:id': null } });
    await screen.findByText('只读');
    await user.click(row('全部').getByRole('button', { name: '删除' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '取消' }));
    expect(api.callsTo('DELETE /strategies/:id')).toHaveLength(0);

    await user.click(await screen.findByRole('checkbox', { name: '全选当前页' }));
    const batch = screen.getAllByRole('button', { name: '删除' }).find((b) => !b.closest('tr'));
    if (!batch) throw new Error('no batch delete');
    await user.click(batch);
    const ask = within(await screen.findByRole('alertdialog'));
    expect(ask.getByText('您确定要删除选中的 2 个授权策略吗？')).toBeInTheDocument();
    await user.click(ask.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /strategies/:id').map((c) => c.path)).toEqual(['/strategies/s1,s2']));
  });
});

describe('strategy plugin: detail page', () => {
  it('opens from the name link and shows the name, every flag and the creation time', async () => {
    const { user, location, api } = await renderPlugin(strategy, {
      api: { 'GET /strategies/paging': page, 'GET /strategies/:id': readOnly },
    });
    await user.click(await screen.findByRole('link', { name: '只读' }));
    await waitFor(() => expect(location().pathname).toBe('/strategy/s1'));
    expect(await screen.findByRole('tab', { name: '基本信息' })).toBeInTheDocument();
    // (The fake's `:id` pattern also matches /strategies/paging.)
    expect(api.callsTo('GET /strategies/:id').map((c) => c.path)).toContain('/strategies/s1');
    const value = (label: string) => screen.getByText(`${label}:`).nextElementSibling?.textContent;
    expect(value('名称')).toBe('只读');
    expect(FLAG_LABELS.map(value)).toEqual(['关闭', '开启', '关闭', '关闭', '关闭', '关闭', '开启', '关闭']);
    expect(value('创建时间')).toBe('2026-11-01 10:00:00');
    expect(within(screen.getByRole('navigation', { name: '面包屑导航' })).getByText('授权策略详情')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '返回列表' })).toHaveAttribute('href', '/strategy');
  });

  it('shows why the record failed to load; needs strategy-detail besides strategy', async () => {
    const view = await renderPlugin(strategy, {
      route: '/strategy/gone',
      api: { 'GET /strategies/:id': reply.envelope(-1, '授权策略不存在：gone') },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('授权策略不存在：gone');
    expect(view.eventsOf('notify')).toEqual([]);
    view.unmount();

    await renderPlugin(strategy, { route: '/strategy/s1', session: admin(['strategy']) });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
  });
});
