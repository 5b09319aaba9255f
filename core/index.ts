// The public surface of core: the ONLY module plugins import (`@/core`).
// Keep it deliberate: tests/core/public-api.test.ts snapshots these names.

// Plugin model
export { definePlugin } from './plugin/definePlugin';
export type {
  AccountKind,
  AnyPlugin,
  ChildRouteDef,
  IconLoader,
  KeyedPageDef,
  LocaleResources,
  Lng,
  OpenPageDef,
  PageDef,
  PageFields,
  PageLayout,
  PluginDescriptor,
} from './plugin/types';
export type { NavGroupKey } from '../shared/nav-groups.ts';
// Permission keys: declared in each plugin's manifest.ts through `@/shared/manifest` (React-free, read by the server too).
export type { KeyGate, PermissionKey } from '../shared/manifest.ts';
export { NAV_GROUPS } from '../shared/nav-groups.ts';
export { PluginRegistrationError, validatePluginLoad, validatePluginModule } from './plugin/registry';

// Services as hooks
export {
  BRANDING_QUERY_KEY,
  Can,
  useAccountApi,
  useApi,
  useBranding,
  useBus,
  useCan,
  useIsAdmin,
  useSession,
} from './app/context';
export type { ResolvedBranding } from './app/context';
export { useLogout } from './app/logout';
export { LanguageSwitch } from './app/LanguageSwitch';
export { usePageTitle } from './app/DocumentTitle';
export { useLanding } from './app/landing';
export { ApiError, PASS_CODE, SUCCESS_CODE } from './api/client';
export type { ApiClient, ApiErrorKind, Envelope, HttpMethod, Query, RequestOptions } from './api/client';
export type { AccountApi, AccountInfo, Branding } from './api/account';
export type { CoreEvents, EventBus, NotifyPayload } from './events/bus';
export type { SessionState, SessionUser } from './session/store';

// Data fetching: plugins never import @tanstack directly.
// Core's own hooks: they find the console's client without a provider in the entry (see core/query/hooks.ts).
export { keepPreviousData } from '@tanstack/react-query';
export { useMutation, useQuery, useQueryClient } from './query/hooks';
export type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';

// Translation: plugins use their own namespace (their id), typed by its zh-CN file (LocaleNamespaces).
export { Trans, useTranslation } from 'react-i18next';
export type { LocaleNamespaces } from './i18n/types';

// UI kit (core/ui)
export * from './ui';

// Host names and addresses, checked alike by the forms and the server.
export { isHost } from '../shared/host.ts';

// Terminal: the WebSocket frames of contract §5.1 and an xterm.js view (xterm loads in its own chunk).
export * from './terminal';
// Off-screen terminal for replaying output (a player's keyframes), loaded on demand.
export { createShadowTerminal } from './replay/shadowTerminal';
export type { ShadowTerminal } from './replay/shadowTerminal';
