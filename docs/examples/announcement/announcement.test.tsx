// A plugin's own test: the real console around the plugin, a fake server that fails on undeclared calls.
import { reply, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import announcement from './index';
import enUS from './locales/en-US/announcement.json';
import zhCN from './locales/zh-CN/announcement.json';

// In a real plugin these files live in locales/<lng>/announcement.json and are found automatically.
const resources = { 'zh-CN': { announcement: zhCN }, 'en-US': { announcement: enUS } };
const page = { total: 2, items: [
  { id: 'a1', title: '维护通知', content: '周六维护', created: '2026-11-01 10:00:00' },
  { id: 'a2', title: '新功能', content: '支持 VNC', created: '2026-11-02 10:00:00' },
] };

describe('announcement plugin', () => {
  it('lists announcements under its menu entry', async () => {
    const { api } = await renderPlugin(announcement, { resources, api: { 'GET /announcements/paging': page } });
    expect(await screen.findByRole('link', { name: '维护通知' })).toBeInTheDocument();
    expect(screen.getByRole('tree', { name: '主菜单' })).toHaveTextContent('系统公告');
    expect(api.callsTo('GET /announcements/paging')[0]?.query).toEqual({ pageIndex: 1, pageSize: 10 });
  });

  it('opens the detail page with its breadcrumb title', async () => {
    const { user, location } = await renderPlugin(announcement, {
      resources,
      api: { 'GET /announcements/paging': page, 'GET /announcements/:id': (r: { params: { id: string } }) => page.items.find((i) => i.id === r.params.id) },
    });
    await user.click(await screen.findByRole('link', { name: '新功能' }));
    await waitFor(() => expect(location().pathname).toBe('/announcement/a2'));
    expect(await screen.findByText('支持 VNC')).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: '面包屑导航' })).getByText('公告详情')).toBeInTheDocument();
  });

  it('hides delete without the action key, shows it with it, and toasts server errors', async () => {
    const view = await renderPlugin(announcement, { resources, session: { user: { menus: ['announcement'] } }, api: { 'GET /announcements/paging': page } });
    await screen.findByRole('link', { name: '维护通知' });
    expect(screen.queryByRole('button', { name: '删除「维护通知」' })).toBeNull();
    view.unmount();

    const { user, eventsOf } = await renderPlugin(announcement, {
      resources,
      session: { user: { menus: ['announcement', 'announcement-del'] } },
      api: { 'GET /announcements/paging': page, 'DELETE /announcements/:id': reply.envelope(-1, '公告已被引用') },
    });
    await user.click(await screen.findByRole('button', { name: '删除「维护通知」' }));
    await waitFor(() => expect(eventsOf('notify')).toEqual([{ intent: 'error', message: '公告已被引用' }]));
  });

  it('shows 403 to users without the menu key', async () => {
    await renderPlugin(announcement, { resources, session: { user: { menus: [] } } });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
  });
});
