import { createFakeApi, createMemoryStorage, createSessionStore, loadLocaleFiles } from '@/core/testing';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { CoreProvider } from '../../core/app/context';
import { NamespaceGate } from '../../core/app/OnDemand';
import { createCoreServices } from '../../core/app/services';

// Core pieces with their own locale namespace (the personal centre's `core-account`) wait for it like a chunk.
async function servicesWith(namespaces: string[]) {
  return createCoreServices({
    plugins: [],
    resources: await loadLocaleFiles(['zh-CN'], namespaces),
    languages: [],
    session: createSessionStore({ storage: createMemoryStorage(), initial: { token: null, user: null } }),
    redirect: () => undefined,
    adapter: createFakeApi({ 'GET /branding': { name: 'Jumpgate', description: '', copyright: '' } }).adapter,
  });
}

function gate(services: Awaited<ReturnType<typeof servicesWith>>) {
  return render(
    <CoreProvider services={services}>
      <MemoryRouter>
        <NamespaceGate namespaces={['core-account']}>
          <p>account centre</p>
        </NamespaceGate>
      </MemoryRouter>
    </CoreProvider>,
  );
}

describe('NamespaceGate', () => {
  it('shows its children at once when the namespace is already there', async () => {
    gate(await servicesWith(['core', 'core-account']));
    expect(screen.getByText('account centre')).toBeInTheDocument();
  });

  it('shows the placeholder, then the children once the namespace has been fetched', async () => {
    const services = await servicesWith(['core']);
    gate(services);
    expect(screen.getByText('正在努力加载中...')).toBeInTheDocument();
    expect(await screen.findByText('account centre')).toBeInTheDocument();
    expect(services.i18n.hasResourceBundle('zh-CN', 'core-account')).toBe(true);
  });

  it('a namespace that cannot be fetched shows the chunk error, and retry tries again', async () => {
    const services = await servicesWith(['core']);
    const ensure = services.ensureNamespaces;
    let fail = true;
    services.ensureNamespaces = (namespaces) => (fail ? Promise.reject(new Error('chunk failed')) : ensure(namespaces));
    gate(services);
    const alert = await screen.findByRole('alert');
    expect(screen.queryByText('account centre')).toBeNull();
    fail = false;
    const retry = alert.querySelector('button');
    expect(retry).not.toBeNull();
    await userEvent.click(retry as HTMLButtonElement);
    expect(await screen.findByText('account centre')).toBeInTheDocument();
  });
});
