import { makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  root: {
    display: 'grid',
    columnGap: tokens.spacingHorizontalXXL,
    rowGap: tokens.spacingVerticalM,
    margin: 0,
  },
  item: { display: 'flex', columnGap: tokens.spacingHorizontalS, minWidth: 0 },
  label: { color: tokens.colorNeutralForeground3, flexShrink: 0, margin: 0 },
  value: { margin: 0, minWidth: 0, overflowWrap: 'anywhere', color: tokens.colorNeutralForeground1 },
  title: {
    fontSize: tokens.fontSizeBase400,
    fontWeight: tokens.fontWeightSemibold,
    marginTop: 0,
    marginBottom: tokens.spacingVerticalM,
  },
});

export interface DescriptionItem {
  /** Already translated. */
  label: string;
  value: ReactNode;
  /** Columns spanned (default 1). */
  span?: number;
  visible?: boolean;
}

export interface DescriptionsProps {
  items: readonly DescriptionItem[];
  /** Items per row (default 3). */
  columns?: number;
  title?: ReactNode;
}

/** A label/value grid for detail pages (a `<dl>`). Empty values show `-`. */
export function Descriptions({ items, columns = 3, title }: DescriptionsProps) {
  const styles = useStyles();
  return (
    <section>
      {title ? <h3 className={styles.title}>{title}</h3> : null}
      <dl className={styles.root} style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
        {items
          .filter((item) => item.visible !== false)
          .map((item) => (
            <div
              key={item.label}
              className={styles.item}
              style={item.span ? { gridColumn: `span ${Math.min(item.span, columns)}` } : undefined}
            >
              <dt className={styles.label}>{item.label}:</dt>
              <dd className={styles.value}>
                {item.value === undefined || item.value === null || item.value === '' ? '-' : item.value}
              </dd>
            </div>
          ))}
      </dl>
    </section>
  );
}
