import { confirm, DangerButton, Descriptions, useAccountApi, useBus, useQuery, useQueryClient, useTranslation } from '@/core';
import { Button, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { CopyRegular } from '@fluentui/react-icons/svg/copy';
import { EyeRegular } from '@fluentui/react-icons/svg/eye';
import { EyeOffRegular } from '@fluentui/react-icons/svg/eye-off';
import { useState } from 'react';
import { ACCOUNT_NS, useCopy, usePanelStyles } from './shared';

/** GET /account/access-token; the zero object (`token: ''`) means none yet. */
interface AccessTokenData {
  id?: string;
  token?: string;
  created?: string;
}

const TOKEN_QUERY_KEY = ['core', 'account', 'access-token'] as const;
const NONE: AccessTokenData = { id: '', token: '', created: '' };
const MASK = '•'.repeat(16);

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '640px' },
  value: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
});

/**
 * The server shows a new token in full once, then only a hint (`forever-…a1b2`): the token itself is kept hashed.
 * A hint has nothing to reveal or copy.
 */
const isHint = (token: string) => token.includes('…');

/** Masked except for its last four characters, so a user can tell tokens apart without showing them. */
function maskToken(token: string): string {
  return token.length > 8 ? `${MASK}${token.slice(-4)}` : MASK;
}

/** 授权令牌: one long-lived personal token per user (show/copy, create or regenerate, delete). */
export function AccessToken() {
  const panel = usePanelStyles();
  const styles = useStyles();
  const { t } = useTranslation(ACCOUNT_NS);
  const account = useAccountApi();
  const bus = useBus();
  const queryClient = useQueryClient();
  const copy = useCopy();
  const [revealed, setRevealed] = useState(false);
  const [busy, setBusy] = useState(false);
  const { data, isPending } = useQuery<AccessTokenData>({
    queryKey: TOKEN_QUERY_KEY,
    queryFn: () => account.getAccessToken<AccessTokenData>(),
  });
  const token = typeof data?.token === 'string' ? data.token : '';

  const create = async () => {
    if (token !== '') {
      const ok = await confirm({ title: t('account.token.regenerateTitle'), message: t('account.token.regenerateText'), confirmText: t('account.token.ok'), danger: true });
      if (!ok) return;
    }
    setBusy(true);
    // POST answers null (success and failure look alike through the account API): re-read and compare.
    await account.createAccessToken();
    const fresh = await account.getAccessToken<AccessTokenData>();
    queryClient.setQueryData(TOKEN_QUERY_KEY, fresh);
    if (typeof fresh.token === 'string' && fresh.token !== '' && fresh.token !== token) {
      setRevealed(false);
      bus.emit('notify', { intent: 'success', message: t('account.token.createdOk') });
    }
    setBusy(false);
  };

  const remove = async () => {
    const ok = await confirm({ title: t('account.token.deleteTitle'), message: t('account.token.deleteText'), confirmText: t('account.token.ok'), danger: true });
    if (!ok) return;
    setBusy(true);
    if (await account.deleteAccessToken()) {
      queryClient.setQueryData(TOKEN_QUERY_KEY, NONE);
      setRevealed(false);
      bus.emit('notify', { intent: 'success', message: t('account.token.deleted') });
    }
    setBusy(false);
  };

  return (
    <section aria-labelledby="account-token-heading">
      <h2 id="account-token-heading" className={panel.heading}>
        {t('account.token.heading')}
      </h2>
      <div className={styles.root}>
        <Text className={panel.help}>{t('account.token.help')}</Text>
        {isPending ? (
          <Spinner size="small" label={t('account.loading')} />
        ) : token === '' ? (
          <Text role="status">{t('account.token.none')}</Text>
        ) : (
          <Descriptions
            columns={1}
            items={[
              {
                label: t('account.token.value'),
                value: (
                  <span className={styles.value}>
                    <code className={panel.mono} data-testid="info.token">
                      {revealed || isHint(token) ? token : maskToken(token)}
                    </code>
                    {isHint(token) ? (
                      <Text className={panel.help}>{t('account.token.shownOnce')}</Text>
                    ) : (
                      <>
                        <Button
                          size="small"
                          appearance="subtle"
                          icon={revealed ? <EyeOffRegular /> : <EyeRegular />}
                          aria-label={revealed ? t('account.token.hide') : t('account.token.show')}
                          onClick={() => setRevealed((r) => !r)}
                        />
                        <Button size="small" appearance="subtle" icon={<CopyRegular />} aria-label={t('account.token.copy')} onClick={() => void copy(token)} />
                      </>
                    )}
                  </span>
                ),
              },
              { label: t('account.token.created'), value: data?.created },
            ]}
          />
        )}
        {isPending ? null : (
          <div className={panel.actions}>
            <Button appearance="primary" disabled={busy} onClick={() => void create()}>
              {token === '' ? t('account.token.create') : t('account.token.regenerate')}
            </Button>
            {token === '' ? null : (
              <DangerButton appearance="secondary" disabled={busy} onClick={() => void remove()}>
                {t('account.token.delete')}
              </DangerButton>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
