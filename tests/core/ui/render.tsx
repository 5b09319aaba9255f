import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type RenderOptions, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next, { type i18n } from 'i18next';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import enUS from '../../../locales/en-US/core.json';
import kitEnUS from '../../../locales/en-US/kit.json';
import zhCN from '../../../locales/zh-CN/core.json';
import kitZhCN from '../../../locales/zh-CN/kit.json';
import { ConfirmHost } from '../../../core/ui';

// Patience for findBy* is set for every console test in tests/setup/console.ts.
vi.setConfig({ testTimeout: 30_000 });

// jsdom layout stubs (offsetParent, body size, ResizeObserver) live in tests/setup/console.ts.

export function createTestI18n(lng: 'zh-CN' | 'en-US' = 'zh-CN'): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng,
    fallbackLng: 'zh-CN',
    ns: ['core', 'kit'],
    defaultNS: 'core',
    resources: { 'zh-CN': { core: zhCN, kit: kitZhCN }, 'en-US': { core: enUS, kit: kitEnUS } },
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    initAsync: false,
  });
  return instance;
}

function Providers({
  client,
  i18n,
  route,
  children,
}: {
  client: QueryClient;
  i18n: i18n;
  route: string;
  children: ReactNode;
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <FluentProvider theme={webLightTheme}>
          <MemoryRouter initialEntries={[route]}>
            {children}
            <ConfirmHost />
          </MemoryRouter>
        </FluentProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

export interface UiRenderOptions extends Omit<RenderOptions, 'wrapper'> {
  lng?: 'zh-CN' | 'en-US';
  route?: string;
  queryClient?: QueryClient;
}

/** Renders inside I18nextProvider (own instance), FluentProvider, a fresh QueryClient (no retry), a MemoryRouter and a ConfirmHost. */
export function renderUi(ui: ReactElement, { lng, route = '/', queryClient, ...options }: UiRenderOptions = {}) {
  const client = queryClient ?? new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: 0 } } });
  const i18n = createTestI18n(lng);
  const user = userEvent.setup();
  return { user, queryClient: client, i18n, ...render(ui, {
      wrapper: ({ children }) => (
        <Providers client={client} i18n={i18n} route={route}>
          {children}
        </Providers>
      ),
      ...options,
    }) };
}
