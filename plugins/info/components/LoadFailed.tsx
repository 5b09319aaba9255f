import { useTranslation } from '@/core';
import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { ACCOUNT_NS } from './shared';

/** The account could not be read: why, and 重试 (as the lists offer), instead of a panel of empty fields. */
export function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation(ACCOUNT_NS);
  return (
    <MessageBar intent="error" role="alert">
      <MessageBarBody>
        <MessageBarTitle>{t('account.loadFailed')}</MessageBarTitle>
        {error instanceof Error ? error.message : null}
      </MessageBarBody>
      <MessageBarActions>
        <Button onClick={onRetry}>{t('account.retry')}</Button>
      </MessageBarActions>
    </MessageBar>
  );
}
