import { type AccountInfo, useApi, useBus, useQuery, useQueryClient, useSession, useTranslation } from '@/core';
import { makeStyles, tokens } from '@fluentui/react-components';
import { useCallback } from 'react';

const ACCOUNT_INFO_QUERY_KEY = ['info', 'account'] as const;

/**
 * GET /account/info. Straight from the API client, not core's account calls (which answer `{}` on failure): a
 * failure must show as one, with a retry, not as an account whose every field is empty.
 */
export function useAccountInfo() {
  const api = useApi();
  return useQuery<Partial<AccountInfo>>({ queryKey: ACCOUNT_INFO_QUERY_KEY, queryFn: async () => (await api.get<AccountInfo | null>('/account/info')) ?? {} });
}

/** Re-reads /account/info into the cache and the session's user (after TOTP changes, so `enableTotp` is current everywhere). */
export function useRefreshAccount(): () => Promise<void> {
  const api = useApi();
  const user = useSession((state) => state.user);
  const setUser = useSession((state) => state.setUser);
  const queryClient = useQueryClient();
  return useCallback(async () => {
    let info: Partial<AccountInfo>;
    try {
      info = (await api.get<AccountInfo | null>('/account/info')) ?? {};
    } catch {
      // Told already (toast); the panels load it again and show the failure with a retry if it persists.
      await queryClient.invalidateQueries({ queryKey: ACCOUNT_INFO_QUERY_KEY });
      return;
    }
    queryClient.setQueryData(ACCOUNT_INFO_QUERY_KEY, info);
    if (user && typeof info.type === 'string') {
      setUser({ ...user, ...info, type: info.type, menus: Array.isArray(info.menus) ? info.menus : user.menus });
    }
  }, [api, user, setUser, queryClient]);
}

/** The personal centre's locale namespace: the plugin's own (locales/<lng>/info.json). */
export const ACCOUNT_NS = 'info';

/** Copies text and says how it went (toast). */
export function useCopy(): (text: string) => Promise<void> {
  const bus = useBus();
  const { t } = useTranslation(ACCOUNT_NS);
  return useCallback(
    async (text: string) => {
      try {
        if (!navigator.clipboard) throw new Error('no clipboard');
        await navigator.clipboard.writeText(text);
        bus.emit('notify', { intent: 'success', message: t('account.copied') });
      } catch {
        bus.emit('notify', { intent: 'error', message: t('account.copyFailed') });
      }
    },
    [bus, t],
  );
}

export const usePanelStyles = makeStyles({
  heading: {
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
    lineHeight: tokens.lineHeightBase500,
    marginTop: 0,
    marginBottom: tokens.spacingVerticalL,
  },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '360px' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  help: { color: tokens.colorNeutralForeground3 },
  mono: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase300,
    overflowWrap: 'anywhere',
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    paddingTop: tokens.spacingVerticalXXS,
    paddingBottom: tokens.spacingVerticalXXS,
    paddingLeft: tokens.spacingHorizontalS,
    paddingRight: tokens.spacingHorizontalS,
  },
});
