import type { AnyPlugin } from '@/core';
import { renderPlugin } from '@/core/testing';
import { fireEvent, screen, within } from '@testing-library/react';
import { createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 30_000 });

// The side menu keeps its 200 px (spec) in both languages: a label too long for it ("Dynamic commands" under its
// group, in English) stays on one line, ends in an ellipsis, and shows whole as a tooltip (issue 27, "Words").
const LongPage = () => createElement('h1', null, 'long page');
// Typed as any plugin: its menu key is the fixture's own, not one of the shipped manifests' PermissionKeys.
const plugin: AnyPlugin = {
  id: 'fx-long',
  manifest: { id: 'fx-long', locales: { 'zh-CN': { label: '动态指令' }, 'en-US': { label: 'Dynamic commands' } }, menus: [{ key: 'fx-long', group: 'resource', labelKey: 'label' }], actions: [] },
  pages: [{ menuKey: 'fx-long', path: '/long', page: 'Page', layout: 'admin' }],
  load: () => Promise.resolve({ Page: LongPage }),
  locales: { 'zh-CN': { label: '动态指令' }, 'en-US': { label: 'Dynamic commands' } },
};

const size = (el: HTMLElement, scroll: number, client: number) => {
  Object.defineProperty(el, 'scrollWidth', { configurable: true, value: scroll });
  Object.defineProperty(el, 'clientWidth', { configurable: true, value: client });
};

describe('side menu labels', () => {
  it('a clipped label shows whole as a tooltip; one that fits has none', async () => {
    await renderPlugin(plugin, { route: '/long', lng: 'en-US' });
    await screen.findByRole('heading', { name: 'long page' });
    const menu = screen.getByRole('tree', { name: 'Main menu' });
    const label = within(menu).getByText('Dynamic commands');
    expect(getComputedStyle(label).whiteSpace).toBe('nowrap');
    size(label, 190, 150);
    fireEvent.pointerEnter(label);
    expect(label.title).toBe('Dynamic commands');
    size(label, 150, 150);
    fireEvent.pointerEnter(label);
    expect(label.hasAttribute('title')).toBe(false);
  });
});
