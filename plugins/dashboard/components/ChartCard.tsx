import { useTranslation } from '@/core';
import {
  makeStyles,
  mergeClasses,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  ToggleButton,
  tokens,
} from '@fluentui/react-components';
import { TableSimpleRegular } from '@fluentui/react-icons/svg/table-simple';
import { type ReactNode, useState } from 'react';

/** The numbers behind a chart, shown as a table on request (and read by screen readers that prefer tables). */
export interface ChartData {
  columns: readonly string[];
  rows: readonly (readonly (string | number)[])[];
}

export interface ChartCardProps {
  /** The card's heading and the chart's accessible name. */
  title: string;
  data: ChartData;
  /** The chart itself (drawn only while the table is not shown). */
  children: ReactNode;
  /** More controls in the card's header (the week / month switch). */
  actions?: ReactNode;
  className?: string;
}

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    minWidth: 0,
  },
  header: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  title: { flexGrow: 1, fontWeight: tokens.fontWeightSemibold },
  figure: { margin: 0, minWidth: 0 },
  table: { maxHeight: '320px', overflowY: 'auto' },
});

/**
 * A titled chart with a "show as table" switch: the same numbers in a Fluent Table, for keyboard and screen-reader
 * users and for anyone who wants the exact values.
 */
export function ChartCard({ title, data, children, actions, className }: ChartCardProps) {
  const styles = useStyles();
  const { t } = useTranslation('dashboard');
  const [asTable, setAsTable] = useState(false);
  return (
    <section className={mergeClasses(styles.card, className)} aria-label={title}>
      <div className={styles.header}>
        <Text as="h2" size={400} className={styles.title}>
          {title}
        </Text>
        {actions}
        <ToggleButton
          size="small"
          appearance="subtle"
          icon={<TableSimpleRegular />}
          checked={asTable}
          onClick={() => setAsTable((v) => !v)}
          aria-label={t('chart.asTable', { title })}
        >
          {t('chart.table')}
        </ToggleButton>
      </div>
      {asTable ? (
        <div className={styles.table}>
          <Table size="small" aria-label={title}>
            <TableHeader>
              <TableRow>
                {data.columns.map((c) => (
                  <TableHeaderCell key={c}>{c}</TableHeaderCell>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.rows.map((row) => (
                <TableRow key={String(row[0])}>
                  {row.map((cell, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are positional, one per column
                    <TableCell key={i}>{cell}</TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : (
        <figure className={styles.figure} aria-label={title}>
          {children}
        </figure>
      )}
    </section>
  );
}
