import { makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  container: { margin: '16px' },
  header: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalS,
    marginBottom: tokens.spacingVerticalL,
  },
  headings: { display: 'flex', flexDirection: 'column', marginRight: 'auto', minWidth: 0 },
  title: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold, margin: 0 },
  subtitle: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalS },
  card: {
    padding: tokens.spacingVerticalL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
  },
});

export interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** E.g. a back button, rendered before the title. */
  back?: ReactNode;
  actions?: ReactNode;
}

export function PageHeader({ title, subtitle, back, actions }: PageHeaderProps) {
  const styles = useStyles();
  return (
    <div className={styles.header}>
      {back}
      <div className={styles.headings}>
        <h1 className={styles.title}>{title}</h1>
        {subtitle ? <Text className={styles.subtitle}>{subtitle}</Text> : null}
      </div>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </div>
  );
}

export interface PageContainerProps extends Partial<PageHeaderProps> {
  children?: ReactNode;
  /** Wrap the content in a white card (detail pages). List pages leave it off: ServerTable has its own. */
  card?: boolean;
  className?: string;
}

/** The `.page-container` of 1.3.9: 16 px margin, optional header (title, actions). */
export function PageContainer({ title, subtitle, back, actions, children, card, className }: PageContainerProps) {
  const styles = useStyles();
  return (
    <div className={mergeClasses(styles.container, className)}>
      {title ? <PageHeader title={title} subtitle={subtitle} back={back} actions={actions} /> : null}
      {card ? <div className={styles.card}>{children}</div> : children}
    </div>
  );
}
