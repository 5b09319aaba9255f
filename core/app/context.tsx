import { FluentProvider, type PartialTheme } from '@fluentui/react-components';
import { createContext, lazy, type ReactNode, Suspense, useCallback, useContext, useEffect, useSyncExternalStore } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { changeLanguage } from '../i18n/createI18n';
import type { KeyGate, PermissionKey } from '../../shared/manifest.ts';
import type { Lng } from '../plugin/types';
import type { SessionState, SessionStore } from '../session/store';
import type { CoreServices } from './services';

export type { CoreServices };
export { BRANDING_QUERY_KEY } from './services';

const CoreContext = createContext<CoreServices | null>(null);

// The overlays (Toaster, confirm Dialog) are a lazy chunk requested only once the first screen is shown or a toast is
// wanted (services.overlays), so the login screen does not download them; `notifyBus` replays earlier toasts.
const Overlays = lazy(() => import('./overlays'));

function DeferredOverlays({ services }: { services: CoreServices }) {
  const isOpen = () => services.overlays.open;
  const open = useSyncExternalStore(services.overlays.subscribe, isOpen, isOpen);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <Overlays bus={services.notifyBus} />
    </Suspense>
  );
}

/**
 * The theme's values are CSS variables on :root, from a stylesheet built out of Fluent's light theme
 * (scripts/theme-css.ts, imported by main.tsx): no theme object in the entry, no style tag written at start,
 * and portals see the same variables. The provider still gets a (empty) theme, which marks it as the top one.
 */
const THEME_IN_STYLESHEET: PartialTheme = {};

export function CoreProvider({ services, children }: { services: CoreServices; children: ReactNode }) {
  return (
    <FluentProvider theme={THEME_IN_STYLESHEET} style={{ minHeight: '100vh' }}>
      <I18nextProvider i18n={services.i18n} defaultNS="core">
        <CoreContext.Provider value={services}>
          {children}
          <DeferredOverlays services={services} />
        </CoreContext.Provider>
      </I18nextProvider>
    </FluentProvider>
  );
}

/** Internal: the services when inside <CoreProvider>, else null. */
export function useOptionalCore(): CoreServices | null {
  return useContext(CoreContext);
}

/** Internal: the services of the running console. */
export function useCore(): CoreServices {
  const services = useContext(CoreContext);
  if (!services) throw new Error('Jumpgate core hooks must be used inside <CoreProvider> (use renderPlugin/renderWithProviders in tests)');
  return services;
}

export const useApi = () => useCore().api;

/** Switches the console's language: its locale files first, then i18next (persisted), then `locale:changed`. */
export function useSwitchLanguage(): (lng: Lng) => Promise<void> {
  const { i18n, bus, ensureLanguage } = useCore();
  return useCallback(
    (lng: Lng) =>
      ensureLanguage(lng)
        .then(() => changeLanguage(i18n, lng))
        .then(() => bus.emit('locale:changed', { lng })),
    [i18n, bus, ensureLanguage],
  );
}
export const useAccountApi = () => useCore().account;
export const useBus = () => useCore().bus;

const wholeState = (state: SessionState) => state;
/** Session state (token, user and actions); pass a selector to re-render on less. */
export function useSession(): SessionState;
export function useSession<T>(selector: (state: SessionState) => T): T;
export function useSession<T>(selector?: (state: SessionState) => T): T | SessionState {
  return useStore<SessionStore, T | SessionState>(useCore().session, selector ?? wholeState);
}

/** Internal: whether `menus` hold any of the gate's keys (the one rule behind `useCan`, `Can` and the kit's gates). */
function holdsAnyMenu(menus: readonly string[] | undefined, gate: string | readonly string[]): boolean {
  const keys = typeof gate === 'string' ? [gate] : gate;
  return keys.some((key) => menus?.includes(key) ?? false);
}

/** True when the user's menus hold any of the keys; an undeclared key does not compile. */
export function useCan(...keys: PermissionKey[]): boolean {
  return useStore(useCore().session, (state) => holdsAnyMenu(state.user?.menus, keys));
}

const noSubscription = () => () => {};

/**
 * Internal: a gate test for many gates at once (e.g. a row's actions), re-rendering only when the menus change.
 * Outside the console (a leaf test without <CoreProvider>) there is no session: every gated item is hidden.
 */
export function useMenuGate(): (gate: KeyGate | undefined) => boolean {
  const session = useOptionalCore()?.session;
  const current = () => session?.getState().user?.menus;
  // The same snapshot when rendered on the server (core/app/serverFirstScreen.tsx), where the session is fixed.
  const menus = useSyncExternalStore(session?.subscribe ?? noSubscription, current, current);
  return useCallback((gate) => gate === undefined || holdsAnyMenu(menus, gate), [menus]);
}

export function useIsAdmin(): boolean {
  return useStore(useCore().session, (state) => state.user?.type === 'admin');
}

/** Renders children only when the user holds any of the menu keys (action gates such as `user-add`). */
export function Can({ menu, children, fallback = null }: { menu: KeyGate; children: ReactNode; fallback?: ReactNode }) {
  const allowed = useCan(...(typeof menu === 'string' ? [menu] : menu));
  return <>{allowed ? children : fallback}</>;
}

export interface ResolvedBranding {
  name: string;
  description: string;
  copyright: string;
}

/** Branding from GET /branding with defaults, so the console works without the server's answer. */
export function useBranding(): ResolvedBranding {
  const { branding } = useCore();
  const { t } = useTranslation('core');
  const data = useSyncExternalStore(branding.subscribe, branding.get, branding.get);
  useEffect(() => branding.load(), [branding]);
  return {
    name: data?.name || t('branding.defaultName'),
    description: data?.description || '',
    copyright: data?.copyright || t('branding.defaultCopyright'),
  };
}
