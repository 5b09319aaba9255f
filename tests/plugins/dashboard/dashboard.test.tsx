import './svg';
import { expectValidPlugin, reply, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import dashboard from '../../../plugins/dashboard';
import { countTicks, seriesOf } from '../../../plugins/dashboard/components/Dashboard';
import { admin, assets, counter, DASHBOARD_KEYS, dateCounter } from './fixtures';

vi.setConfig({ testTimeout: 30_000 });

const API = {
  'GET /overview/counter': counter,
  'GET /overview/asset': assets,
  'GET /overview/date-counter': (req: { query: { d?: string } }) => dateCounter(req.query.d === 'month' ? 30 : 7),
};
const LISTS = ['user', 'asset', 'login-log', 'offline-session'];

describe('dashboard', () => {
  it('is a valid plugin', async () => {
    await expectValidPlugin(dashboard);
  });

  it('is where an admin lands at /', async () => {
    const session = admin();
    const info = { ...session.user, username: 'me', nickname: 'Me', enableTotp: false, roles: [] };
    const { location } = await renderPlugin(dashboard, { route: '/', session, api: { ...API, 'GET /account/info': info } });
    await waitFor(() => expect(location().pathname).toBe('/dashboard'));
    expect(await screen.findByRole('region', { name: '在线用户 3/10' })).toBeInTheDocument();
  });

  it('shows the four counters, each linking to its list', async () => {
    await renderPlugin(dashboard, { route: '/dashboard', session: admin([...DASHBOARD_KEYS, ...LISTS]), api: API });
    expect(await screen.findByRole('link', { name: '在线用户 3/10' })).toHaveAttribute('href', '/user');
    expect(screen.getByRole('link', { name: '运行中资产 2/8' })).toHaveAttribute('href', '/asset');
    expect(screen.getByRole('link', { name: '登录失败次数 5' })).toHaveAttribute('href', '/login-log?state=0');
    expect(screen.getByRole('link', { name: '历史会话总数 41' })).toHaveAttribute('href', '/offline-session');
  });

  it('shows a counter without a link when its list is closed to the user', async () => {
    await renderPlugin(dashboard, { route: '/dashboard', session: admin([...DASHBOARD_KEYS, 'login-log']), api: API });
    expect(await screen.findByRole('link', { name: '登录失败次数 5' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: '在线用户 3/10' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '在线用户 3/10' })).toBeNull();
    expect(screen.queryByRole('link', { name: '历史会话总数 41' })).toBeNull();
  });

  it('draws the asset donut with an accessible name, and its numbers as a table on request', async () => {
    const { user } = await renderPlugin(dashboard, { route: '/dashboard', session: admin(), api: API });
    const card = await screen.findByRole('region', { name: '资产类型' });
    expect(within(card).getByRole('figure', { name: '资产类型' })).toBeInTheDocument();
    const ssh = within(card).getByRole('option', { name: 'SSH, 5.' }); // the library's own slice label
    const rdp = within(card).getByRole('option', { name: 'RDP, 2.' });
    // Each slice has a colour of its own (a palette token given as is would leave them all black).
    expect(ssh.style.fill).toMatch(/^(#|rgb)/);
    expect(rdp.style.fill).toMatch(/^(#|rgb)/);
    expect(ssh.style.fill).not.toBe(rdp.style.fill);
    await user.click(within(card).getByRole('button', { name: '以表格显示「资产类型」' }));
    const table = within(card).getByRole('table', { name: '资产类型' });
    const rows = within(table).getAllByRole('row').map((r) => r.textContent);
    expect(rows).toEqual(['类型数量', 'SSH5', 'RDP2', 'VNC1', 'TELNET0', 'Kubernetes0']);
    expect(within(card).queryByRole('figure')).toBeNull();
  });

  it('says there is no asset yet instead of drawing an empty ring', async () => {
    const none = { ssh: 0, rdp: 0, vnc: 0, telnet: 0, kubernetes: 0, all: 0 };
    await renderPlugin(dashboard, { route: '/dashboard', session: admin(), api: { ...API, 'GET /overview/asset': none } });
    const card = await screen.findByRole('region', { name: '资产类型' });
    expect(await within(card).findByText('还没有资产')).toBeInTheDocument();
    expect(within(card).queryByRole('option')).toBeNull();
  });

  it('on an empty installation lists the first steps, each a link to its page, none ticked', async () => {
    const empty = { totalUser: 1, onlineUser: 1, totalAsset: 0, activeAsset: 0, offlineSession: 0, failLoginCount: 0, totalCredential: 0, totalAuthorised: 0, totalSession: 0 };
    const none = { ssh: 0, rdp: 0, vnc: 0, telnet: 0, kubernetes: 0, all: 0 };
    await renderPlugin(dashboard, {
      route: '/dashboard',
      session: admin([...DASHBOARD_KEYS, ...LISTS, 'credential', 'authorisation']),
      api: { ...API, 'GET /overview/counter': empty, 'GET /overview/asset': none },
    });
    const start = await screen.findByRole('region', { name: '开始使用' });
    expect(within(start).getByText('按下面的步骤完成初始配置（已完成 0/5）：')).toBeInTheDocument();
    const steps = within(start).getAllByRole('listitem');
    expect(steps.map((li) => li.textContent)).toEqual([
      '添加授权凭证（登录资产用的账号和密码或密钥）未完成',
      '添加资产（要访问的主机）未完成',
      '添加用户未完成',
      '把资产授权给用户或用户组未完成',
      '打开一个终端（在资产列表中点击「接入」）未完成',
    ]);
    expect(steps.map((li) => within(li).getByRole('link').getAttribute('href'))).toEqual(['/credential', '/asset', '/user', '/authorisation', '/asset']);
  });

  it('ticks the steps done from the counters, links only what the user may open, and is gone once all are done', async () => {
    const some = { ...counter, totalUser: 1, totalCredential: 2, totalAuthorised: 0, totalSession: 0 };
    const view = await renderPlugin(dashboard, { route: '/dashboard', session: admin([...DASHBOARD_KEYS, 'asset']), api: { ...API, 'GET /overview/counter': some } });
    const start = await screen.findByRole('region', { name: '开始使用' });
    expect(within(start).getByText('按下面的步骤完成初始配置（已完成 2/5）：')).toBeInTheDocument();
    const state = within(start).getAllByRole('listitem').map((li) => li.textContent?.endsWith('已完成'));
    expect(state).toEqual([true, true, false, false, false]);
    // Without the credential, user and authorisation keys those steps are words, not links.
    expect(within(start).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['/asset', '/asset']);
    view.unmount();

    const all = { ...counter, totalCredential: 1, totalAuthorised: 1, totalSession: 1 };
    const done = await renderPlugin(dashboard, { route: '/dashboard', session: admin(), api: { ...API, 'GET /overview/counter': all } });
    expect(await screen.findByRole('region', { name: '在线用户 3/10' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: '开始使用' })).toBeNull();
    done.unmount();

    // A 1.3.9 server does not count them: no checklist rather than a wrong one.
    await renderPlugin(dashboard, { route: '/dashboard', session: admin(), api: API });
    expect(await screen.findByRole('region', { name: '在线用户 3/10' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: '开始使用' })).toBeNull();
  });

  it('counts sessions in whole numbers on the y axis (no 0.5 session)', async () => {
    const quiet = dateCounter(7).map((r) => ({ ...r, value: r.date === '2026-11-23' && r.type === '会话次数' ? 1 : 0 }));
    await renderPlugin(dashboard, { route: '/dashboard', session: admin(), api: { ...API, 'GET /overview/date-counter': quiet } });
    const card = await screen.findByRole('region', { name: '会话统计' });
    await waitFor(() => expect(within(card).getByRole('figure', { name: '会话统计' }).querySelector('svg')).not.toBeNull());
    const figure = within(card).getByRole('figure', { name: '会话统计' });
    const yLabels = [...figure.querySelectorAll('g[class*="yAxis"] .tick text, g[class*="yAxis"] text')].map((t) => t.textContent);
    expect(yLabels).toEqual(['0', '1']);
  });

  it('charts the week, and the month when asked, with a table of the same numbers', async () => {
    const { user, api } = await renderPlugin(dashboard, { route: '/dashboard', session: admin(), api: API });
    const card = await screen.findByRole('region', { name: '会话统计' });
    await waitFor(() => expect(within(card).getByRole('figure', { name: '会话统计' }).querySelector('svg')).not.toBeNull());
    expect(api.callsTo('GET /overview/date-counter').map((c) => c.query)).toEqual([{ d: 'week' }]);
    await user.click(within(card).getByRole('button', { name: '以表格显示「会话统计」' }));
    let table = within(card).getByRole('table', { name: '会话统计' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['日期', '登录次数', '活跃用户', '活跃资产', '会话次数']);
    let rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(8); // header + 7 days, today included
    expect(rows[7]?.textContent).toBe('2026-11-2370717273');

    await user.click(within(card).getByRole('tab', { name: '按月' }));
    await waitFor(() => expect(api.callsTo('GET /overview/date-counter').map((c) => c.query)).toEqual([{ d: 'week' }, { d: 'month' }]));
    await waitFor(() => expect(within(within(card).getByRole('table', { name: '会话统计' })).getAllByRole('row')).toHaveLength(31));
    table = within(card).getByRole('table', { name: '会话统计' });
    rows = within(table).getAllByRole('row');
    expect(rows[1]?.textContent).toBe('2026-10-2510111213');
    expect(rows[30]?.textContent).toBe('2026-11-23300301302303');
  });

  it('shows a failed counter with a retry that asks again', async () => {
    let calls = 0;
    const { user, api } = await renderPlugin(dashboard, {
      route: '/dashboard',
      session: admin(),
      api: { ...API, 'GET /overview/counter': () => (++calls === 1 ? reply.envelope(-1, '统计失败') : counter) },
    });
    expect(await screen.findByText('数据概览加载失败：统计失败')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '重试' }));
    expect(await screen.findByRole('region', { name: '在线用户 3/10' })).toBeInTheDocument();
    expect(api.callsTo('GET /overview/counter')).toHaveLength(2);
  });

  it('speaks English', async () => {
    const { user } = await renderPlugin(dashboard, { route: '/dashboard', lng: 'en-US', session: admin(), api: API });
    expect(await screen.findByRole('region', { name: 'Failed logins 5' })).toBeInTheDocument();
    const card = await screen.findByRole('region', { name: 'Sessions and logins' });
    await user.click(within(card).getByRole('button', { name: 'Show “Sessions and logins” as a table' }));
    expect(within(card).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Date', 'Logins', 'Active users', 'Active assets', 'Sessions']);
    expect(within(card).getByRole('tab', { name: 'By month' })).toBeInTheDocument();
  });
});

describe('countTicks', () => {
  it('gives whole numbers from 0 up to at least the largest count, at most five', () => {
    expect(countTicks(0)).toEqual([0, 1]);
    expect(countTicks(1)).toEqual([0, 1]);
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(5)).toEqual([0, 2, 4, 6]);
    expect(countTicks(41)).toEqual([0, 11, 22, 33, 44]);
    expect(countTicks(100)).toEqual([0, 25, 50, 75, 100]);
  });
});

describe('seriesOf', () => {
  it('orders the known series first, keeps unknown ones, and fills missing days with 0', () => {
    const s = seriesOf([
      { date: '2026-11-22', type: '会话次数', value: 2 },
      { date: '2026-11-22', type: '登录次数', value: 1 },
      { date: '2026-11-23', type: '新指标', value: 9 },
    ]);
    expect(s.types).toEqual(['登录次数', '会话次数', '新指标']);
    expect(s.dates).toEqual(['2026-11-22', '2026-11-23']);
    expect(s.value('登录次数', '2026-11-23')).toBe(0);
    expect(s.value('新指标', '2026-11-23')).toBe(9);
  });
});
