import { makeStyles, Spinner, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '../query/hooks';
import { useUiT } from './i18n';
import { LoadFailed } from './LoadFailed';
import { PageContainer } from './PageContainer';

const useStyles = makeStyles({ error: { marginBottom: tokens.spacingVerticalM } });

export interface RecordPageProps {
  title: ReactNode;
  /** The list the 返回列表 link leads back to. */
  backTo: string;
  isPending: boolean;
  error: unknown;
  /** The page's content once the record is there. */
  children: () => ReactNode;
  /** What 重试 does after a failed load. Default: load again every query of the page that failed (the record's). */
  onRetry?: () => void;
}

/** A detail page's frame: a card with 返回列表, a spinner while the record loads, and why it failed instead of nothing. */
export function RecordPage({ title, backTo, isPending, error, children, onRetry }: RecordPageProps) {
  const t = useUiT();
  const styles = useStyles();
  const client = useQueryClient();
  // As the lists offer it: a failed load (the network, a timeout) may well succeed now. The pages give their
  // query's state, not the query; the failed queries on screen are the ones to load again.
  const retry = onRetry ?? (() => void client.refetchQueries({ type: 'active', predicate: (query) => query.state.status === 'error' }));
  let body: ReactNode;
  if (error) {
    body = <LoadFailed error={error} onRetry={retry} className={styles.error} />;
  } else if (isPending) body = <Spinner label={t('ui.loading')} />;
  else body = children();
  return (
    <PageContainer title={title} card actions={<Link to={backTo}>{t('ui.backToList')}</Link>}>
      {body}
    </PageContainer>
  );
}
