import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createContext, lazy, type ReactNode, Suspense, useContext } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { Branding } from '../api/account';
import type { SessionState, SessionStore } from '../session/store';
import type { NotifyPayload } from '../events/bus';
import type { CoreServices } from './services';

const CoreContext = createContext<CoreServices | null>(null);

// Hosts are lazy (entry budget); `notifyBus` replays toasts emitted before they mounted.
const Hosts = lazy(() => import('./hosts'));
export type { NotifyPayload };

export function CoreProvider({ services, children }: { services: CoreServices; children: ReactNode }) {
  return (
    <FluentProvider theme={webLightTheme} style={{ minHeight: '100vh' }}>
      <I18nextProvider i18n={services.i18n} defaultNS="core">
        <QueryClientProvider client={services.queryClient}>
          <CoreContext.Provider value={services}>
            {children}
            <Suspense fallback={null}>
              <Hosts bus={services.notifyBus} />
            </Suspense>
          </CoreContext.Provider>
        </QueryClientProvider>
      </I18nextProvider>
    </FluentProvider>
  );
}

/** Internal: the services of the running console. */
export function useCore(): CoreServices {
  const services = useContext(CoreContext);
  if (!services) throw new Error('Jumpgate core hooks must be used inside <CoreProvider> (use renderPlugin/renderWithProviders in tests)');
  return services;
}

export const useApi = () => useCore().api;
export const useAccountApi = () => useCore().account;
export const useBus = () => useCore().bus;

const wholeState = (state: SessionState) => state;
/** Session state (token, user and actions); pass a selector to re-render on less. */
export function useSession(): SessionState;
export function useSession<T>(selector: (state: SessionState) => T): T;
export function useSession<T>(selector?: (state: SessionState) => T): T | SessionState {
  return useStore<SessionStore, T | SessionState>(useCore().session, selector ?? wholeState);
}

/** True when the user's menus hold any of the keys. */
export function useHasMenu(...keys: string[]): boolean {
  return useStore(useCore().session, (state) => keys.some((key) => state.user?.menus.includes(key) ?? false));
}

export function useIsAdmin(): boolean {
  return useStore(useCore().session, (state) => state.user?.type === 'admin');
}

/** Renders children only when the user holds any of the menu keys (action gates such as `user-add`). */
export function Can({ menu, children, fallback = null }: { menu: string | readonly string[]; children: ReactNode; fallback?: ReactNode }) {
  const allowed = useHasMenu(...(typeof menu === 'string' ? [menu] : menu));
  return <>{allowed ? children : fallback}</>;
}

export const BRANDING_QUERY_KEY = ['core', 'branding'] as const;

export interface ResolvedBranding {
  name: string;
  description: string;
  copyright: string;
}

/** Branding from GET /branding with defaults, so the console works without the server's answer. */
export function useBranding(): ResolvedBranding {
  const { account } = useCore();
  const { t } = useTranslation('core');
  const { data } = useQuery<Branding>({ queryKey: BRANDING_QUERY_KEY, queryFn: account.branding, staleTime: Number.POSITIVE_INFINITY, retry: false });
  return {
    name: data?.name || t('branding.defaultName'),
    description: data?.description || '',
    copyright: data?.copyright || t('branding.defaultCopyright'),
  };
}
