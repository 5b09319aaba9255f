import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { DocumentDismissRegular } from '@fluentui/react-icons/svg/document-dismiss';
import type { ReactNode } from 'react';
import { useUiT } from './i18n';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    rowGap: tokens.spacingVerticalS,
    padding: tokens.spacingVerticalXXL,
    color: tokens.colorNeutralForeground3,
  },
  icon: { fontSize: '40px' },
});

export interface EmptyStateProps {
  /** Defaults to 暂无数据. */
  message?: ReactNode;
  icon?: ReactNode;
  /** E.g. a "new" button. */
  action?: ReactNode;
}

/** Centered "no data" block. */
export function EmptyState({ message, icon, action }: EmptyStateProps) {
  const styles = useStyles();
  const t = useUiT();
  return (
    <div className={styles.root}>
      <span className={styles.icon} aria-hidden>
        {icon ?? <DocumentDismissRegular />}
      </span>
      <Text>{message ?? t('ui.empty')}</Text>
      {action}
    </div>
  );
}
