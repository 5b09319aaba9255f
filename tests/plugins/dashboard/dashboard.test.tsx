import './svg';
import { expectValidPlugin, reply, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import dashboard from '../../../plugins/dashboard';
import { seriesOf } from '../../../plugins/dashboard/components/Dashboard';
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
