import { Button, makeStyles, Select, Text, tokens, useId } from '@fluentui/react-components';
import { ChevronLeftRegular } from '@fluentui/react-icons/svg/chevron-left';
import { ChevronRightRegular } from '@fluentui/react-icons/svg/chevron-right';
import { useUiT } from '../i18n';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'flex-end',
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalM,
  },
  pages: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXS },
  size: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXS },
  ellipsis: { paddingLeft: tokens.spacingHorizontalXS, paddingRight: tokens.spacingHorizontalXS },
});

export interface PagerProps {
  pageIndex: number;
  pageSize: number;
  total: number;
  pageSizeOptions: readonly number[];
  onPageChange: (pageIndex: number) => void;
  onPageSizeChange: (pageSize: number) => void;
}

/** Pages to show: first, last, current ± 2, with gaps as `null`. */
export function pageWindow(current: number, count: number): (number | null)[] {
  const pages = new Set<number>([1, count]);
  for (let p = current - 2; p <= current + 2; p++) if (p >= 1 && p <= count) pages.add(p);
  const sorted = [...pages].filter((p) => p >= 1).sort((a, b) => a - b);
  const out: (number | null)[] = [];
  let prev = 0;
  for (const p of sorted) {
    if (p - prev > 1) out.push(null);
    out.push(p);
    prev = p;
  }
  return out;
}

/** The pager under a list: the total, the pages (first, last, current ± 2), the page size. ServerTable's, and any
 * list paged in the browser (a plugin pages a long answer with it). */
export function Pager({ pageIndex, pageSize, total, pageSizeOptions, onPageChange, onPageSizeChange }: PagerProps) {
  const styles = useStyles();
  const t = useUiT();
  const sizeId = useId('page-size');
  const count = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className={styles.root} aria-label={t('ui.pagination')}>
      <Text>{t('ui.total', { count: total })}</Text>
      <div className={styles.pages}>
        <Button
          appearance="subtle"
          icon={<ChevronLeftRegular />}
          aria-label={t('ui.prevPage')}
          disabled={pageIndex <= 1}
          onClick={() => onPageChange(pageIndex - 1)}
        />
        {pageWindow(pageIndex, count).map((p, i) =>
          p === null ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity of their own
            <span key={`gap-${i}`} className={styles.ellipsis} aria-hidden>
              …
            </span>
          ) : (
            <Button
              key={p}
              appearance={p === pageIndex ? 'primary' : 'subtle'}
              aria-label={t('ui.page', { page: p })}
              aria-current={p === pageIndex ? 'page' : undefined}
              onClick={() => p !== pageIndex && onPageChange(p)}
            >
              {p}
            </Button>
          ),
        )}
        <Button
          appearance="subtle"
          icon={<ChevronRightRegular />}
          aria-label={t('ui.nextPage')}
          disabled={pageIndex >= count}
          onClick={() => onPageChange(pageIndex + 1)}
        />
      </div>
      <div className={styles.size}>
        <label htmlFor={sizeId}>
          <Text>{t('ui.pageSize')}</Text>
        </label>
        <Select id={sizeId} value={String(pageSize)} onChange={(_, d) => onPageSizeChange(Number(d.value))}>
          {pageSizeOptions.map((s) => (
            <option key={s} value={String(s)}>
              {t('ui.pageSizeOption', { size: s })}
            </option>
          ))}
        </Select>
      </div>
    </nav>
  );
}
