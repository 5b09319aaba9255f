import { ApiError, PageContainer, useTranslation } from '@/core';
import {
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export const useSharedStyles = makeStyles({
  tags: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
  error: { marginBottom: tokens.spacingVerticalM },
});

/** The message of a failed call; the client's ApiError already carries the server's words. */
function errorText(error: unknown): string | undefined {
  if (error instanceof ApiError || error instanceof Error) return error.message;
  return undefined;
}

/** Loading and failure states of a detail page: a missing record says why instead of rendering nothing. */
export function RecordPage({
  title,
  backTo,
  isPending,
  error,
  children,
}: {
  title: ReactNode;
  backTo: string;
  isPending: boolean;
  error: unknown;
  children: () => ReactNode;
}) {
  const { t } = useTranslation('identity');
  const styles = useSharedStyles();
  let body: ReactNode;
  if (error) {
    body = (
      <MessageBar intent="error" role="alert" className={styles.error}>
        <MessageBarBody>
          <MessageBarTitle>{t('common.loadFailed')}</MessageBarTitle>
          {errorText(error)}
        </MessageBarBody>
      </MessageBar>
    );
  } else if (isPending) body = <Spinner />;
  else body = children();
  return (
    <PageContainer title={title} card actions={<Link to={backTo}>{t('common.back')}</Link>}>
      {body}
    </PageContainer>
  );
}
