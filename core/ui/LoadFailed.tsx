import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { useUiT } from './i18n';

export interface LoadFailedProps {
  /** What failed; its message is shown under 加载失败. */
  error: unknown;
  /** 重试: load again (a network failure or a timeout may well pass now). Without it no button shows. */
  onRetry?: () => void;
  className?: string;
}

/** A load that failed, said in place of what it would have shown: 加载失败, why, and 重试. */
export function LoadFailed({ error, onRetry, className }: LoadFailedProps) {
  const t = useUiT();
  return (
    <MessageBar intent="error" role="alert" className={className}>
      <MessageBarBody>
        <MessageBarTitle>{t('ui.loadFailed')}</MessageBarTitle>
        {error instanceof Error ? error.message : null}
      </MessageBarBody>
      {onRetry ? (
        <MessageBarActions>
          <Button onClick={onRetry}>{t('ui.retry')}</Button>
        </MessageBarActions>
      ) : null}
    </MessageBar>
  );
}
