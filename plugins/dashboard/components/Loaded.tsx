import { useTranslation } from '@/core';
import { Button, MessageBar, MessageBarActions, MessageBarBody, Spinner } from '@fluentui/react-components';
import type { ReactNode } from 'react';

interface LoadedProps<T> {
  query: { data: T | undefined; isPending: boolean; error: Error | null; refetch: () => unknown };
  /** What is loading, for the spinner's label and the error's title. */
  what: string;
  children: (data: T) => ReactNode;
}

/** A query's three states: a labelled spinner, the failure with 重试, or the content. */
export function Loaded<T>({ query, what, children }: LoadedProps<T>) {
  const { t } = useTranslation('dashboard');
  if (query.data !== undefined) return children(query.data);
  if (query.error)
    return (
      <MessageBar intent="error">
        <MessageBarBody>{t('state.failed', { what, message: query.error.message })}</MessageBarBody>
        <MessageBarActions>
          <Button size="small" onClick={() => void query.refetch()}>
            {t('state.retry')}
          </Button>
        </MessageBarActions>
      </MessageBar>
    );
  return <Spinner size="small" label={t('state.loading', { what })} />;
}
