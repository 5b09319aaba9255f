import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { LoadFailed, StatusBadge, useQuery } from '@/core';
import type { ReactNode } from 'react';
import { useDomainT } from './i18n';
import { ValidityBadge, type ValidityState, ValidityWindow } from './validity';

/** A query key as `useQuery` takes it (core keeps @tanstack to itself). */
type QueryKey = readonly unknown[];

// The auditor's question "may this user open this asset, and why?" answered by the server
// (GET /authorised/explain): the outcome, what it rests on, every grant that touches the pair and which one wins.

/** The file-transfer and clipboard switches of an authorisation strategy. */
export const STRATEGY_FLAGS = ['upload', 'download', 'delete', 'rename', 'edit', 'createDir', 'copy', 'paste'] as const;
export type StrategyFlag = (typeof STRATEGY_FLAGS)[number];

export type ExplainedStrategy = { id: string; name: string } & Record<StrategyFlag, boolean>;

/** One grant touching the pair: to the user directly, or to a group the user is in. */
export interface ExplainedGrant {
  id: string;
  kind: 'user' | 'group';
  userGroupId?: string;
  userGroupName?: string;
  strategyId: string;
  strategyName: string;
  validFrom: string;
  validUntil: string;
  state: ValidityState;
  /** The grant whose strategy applies. */
  wins: boolean;
}

export interface AccessExplanation {
  allowed: boolean;
  /** The strategy that applies; null when none (or access is refused). */
  strategy: ExplainedStrategy | null;
  via: 'super-admin' | 'owner' | 'user' | 'group' | null;
  grants: ExplainedGrant[];
}

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  heading: { fontWeight: tokens.fontWeightSemibold, margin: `0 0 ${tokens.spacingVerticalS}` },
  flags: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, listStyleType: 'none', padding: 0, margin: 0 },
});

export interface AccessExplainDialogProps {
  /** Opens the dialog and loads the explanation (fresh on every open). */
  open: boolean;
  onClose: () => void;
  /** Default 访问原因; e.g. the user and asset names. */
  title?: ReactNode;
  queryKey: QueryKey;
  load: () => Promise<AccessExplanation>;
}

/** Why a user may (or may not) open an asset, shown from the server's explanation. */
export function AccessExplainDialog({ open, onClose, title, queryKey, load }: AccessExplainDialogProps) {
  const t = useDomainT();
  return (
    <Dialog open={open} modalType="modal" onOpenChange={(_, d) => (d.open ? undefined : onClose())}>
      <DialogSurface style={{ maxWidth: 'min(760px, calc(100vw - 32px))' }}>
        <DialogBody>
          <DialogTitle>{title ?? t('ui.explain.title')}</DialogTitle>
          <DialogContent>{open ? <Explanation queryKey={queryKey} load={load} /> : null}</DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>
              {t('ui.close')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

function Explanation({ queryKey, load }: Pick<AccessExplainDialogProps, 'queryKey' | 'load'>) {
  const t = useDomainT();
  const styles = useStyles();
  // Never from a cache: a grant or a membership may have changed since the last look.
  const answer = useQuery({ queryKey, queryFn: load, gcTime: 0, staleTime: 0 });
  if (answer.isPending) return <Spinner label={t('ui.loading')} />;
  if (answer.isError) {
    return <LoadFailed error={answer.error} onRetry={() => void answer.refetch()} />;
  }
  const { allowed, via, strategy, grants } = answer.data;
  const winner = grants.find((g) => g.wins);
  const source = (g: ExplainedGrant) =>
    g.kind === 'group' ? t('ui.explain.source.group', { name: g.userGroupName || g.userGroupId || '' }) : t('ui.explain.source.user');
  const why =
    via === 'group' && winner
      ? t('ui.explain.via.group', { name: winner.userGroupName || winner.userGroupId || '' })
      : via
        ? t(`ui.explain.via.${via}`)
        : t('ui.explain.via.none');

  return (
    <div className={styles.body}>
      <MessageBar intent={allowed ? 'success' : 'warning'} role="status">
        <MessageBarBody>
          <MessageBarTitle>{t(allowed ? 'ui.explain.allowed' : 'ui.explain.denied')}</MessageBarTitle>
          {why}
        </MessageBarBody>
      </MessageBar>

      {allowed ? (
        <section aria-label={t('ui.explain.strategy')}>
          <h3 className={styles.heading}>{strategy ? t('ui.explain.strategyNamed', { name: strategy.name }) : t('ui.explain.strategy')}</h3>
          {strategy ? (
            <ul className={styles.flags} aria-label={t('ui.explain.flagsLabel')}>
              {STRATEGY_FLAGS.map((flag) => (
                <li key={flag}>
                  <StatusBadge tone={strategy[flag] ? 'success' : 'error'}>
                    {t(`ui.explain.flags.${flag}`)} {t(strategy[flag] ? 'ui.explain.on' : 'ui.explain.off')}
                  </StatusBadge>
                </li>
              ))}
            </ul>
          ) : (
            <span>{t('ui.explain.noStrategy')}</span>
          )}
        </section>
      ) : null}

      <section>
        <h3 className={styles.heading}>{t('ui.explain.grants')}</h3>
        {grants.length === 0 ? (
          <span>{t('ui.explain.noGrants')}</span>
        ) : (
          <Table aria-label={t('ui.explain.grants')} size="small">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{t('ui.explain.columns.source')}</TableHeaderCell>
                <TableHeaderCell>{t('ui.explain.columns.strategy')}</TableHeaderCell>
                <TableHeaderCell>{t('ui.explain.columns.window')}</TableHeaderCell>
                <TableHeaderCell>{t('ui.explain.columns.state')}</TableHeaderCell>
                <TableHeaderCell>{t('ui.explain.columns.wins')}</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {grants.map((g) => (
                <TableRow key={g.id}>
                  <TableCell>{source(g)}</TableCell>
                  <TableCell>{g.strategyName || '-'}</TableCell>
                  <TableCell>
                    <ValidityWindow from={g.validFrom} until={g.validUntil} />
                  </TableCell>
                  <TableCell>
                    <ValidityBadge state={g.state} />
                  </TableCell>
                  <TableCell>
                    {g.wins ? (
                      <Badge appearance="filled" color="brand" shape="rounded">
                        {t('ui.explain.wins')}
                      </Badge>
                    ) : (
                      '-'
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>
    </div>
  );
}
