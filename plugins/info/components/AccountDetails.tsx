import { Descriptions, LoadFailed, StatusBadge, useTranslation } from '@/core';
import { Spinner } from '@fluentui/react-components';
import { ACCOUNT_NS, useAccountInfo, usePanelStyles } from './shared';

/** 基本信息: the account as GET /account/info describes it. Role ids are not names, so only their count shows. */
export function AccountDetails() {
  const styles = usePanelStyles();
  const { t } = useTranslation(ACCOUNT_NS);
  const { data, isPending, error, refetch } = useAccountInfo();
  return (
    <section aria-labelledby="account-info-heading">
      <h2 id="account-info-heading" className={styles.heading}>
        {t('account.info.heading')}
      </h2>
      {isPending ? (
        <Spinner size="small" label={t('account.loading')} />
      ) : error ? (
        <LoadFailed error={error} onRetry={() => void refetch()} />
      ) : (
        <Descriptions
          columns={1}
          items={[
            { label: t('account.info.username'), value: data?.username },
            { label: t('account.info.nickname'), value: data?.nickname },
            {
              label: t('account.info.type'),
              value: data?.type === 'admin' ? t('account.info.typeAdmin') : data?.type === 'user' ? t('account.info.typeUser') : data?.type,
            },
            {
              label: t('account.info.totp'),
              value:
                data?.enableTotp === undefined ? undefined : (
                  <StatusBadge tone={data.enableTotp ? 'success' : 'warning'}>
                    {data.enableTotp ? t('account.info.totpOn') : t('account.info.totpOff')}
                  </StatusBadge>
                ),
            },
            { label: t('account.info.roles'), value: Array.isArray(data?.roles) ? String(data.roles.length) : undefined },
          ]}
        />
      )}
    </section>
  );
}
