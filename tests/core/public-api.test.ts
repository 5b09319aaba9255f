import * as core from '@/core';
import { describe, expect, it } from 'vitest';

// The plugin API is a reviewed surface: a change here is a deliberate change of the contract.
const CORE_OWN_EXPORTS = [
  'ApiError',
  'BRANDING_QUERY_KEY',
  'Can',
  'LanguageSwitch',
  'NAV_GROUPS',
  'PASS_CODE',
  'PluginRegistrationError',
  'SUCCESS_CODE',
  'Trans',
  'definePlugin',
  'homePathFor',
  'keepPreviousData',
  'useAccountApi',
  'useApi',
  'useBranding',
  'useBus',
  'useCan',
  'useIsAdmin',
  'useLogout',
  'useMutation',
  'useQuery',
  'useQueryClient',
  'useSession',
  'useTranslation',
  'validatePluginLoad',
  'validatePluginModule',
];

describe('@/core public API', () => {
  it('exports the platform surface (the UI kit adds its own names)', () => {
    const names = Object.keys(core);
    for (const name of CORE_OWN_EXPORTS) expect(names, name).toContain(name);
  });

  it('exports the table row kit (gated row actions and the toolbar 新建 button)', () => {
    const names = Object.keys(core);
    for (const name of ['AddButton', 'RowActions']) expect(names, name).toContain(name);
  });

  it('does not leak internals (raw axios, store factories, i18next, registry builders)', () => {
    const names = Object.keys(core);
    for (const name of ['axios', 'default', 'createSessionStore', 'createApiClient', 'createPluginRegistry', 'i18next', 'createI18n', 'CoreProvider', 'useCore', 'useMenuGate', 'holdsAnyMenu']) {
      expect(names).not.toContain(name);
    }
  });
});
