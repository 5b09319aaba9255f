import { useTranslation } from '@/core';
import { makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  list: { margin: `${tokens.spacingVerticalS} 0`, paddingLeft: tokens.spacingHorizontalXL },
});

/** How many records a batch delete's question names; the rest are counted. */
const SHOWN = 5;

/** A delete question's text followed by the records it deletes, named, the first few of them and how many more. */
export function RecordList({ intro, names }: { intro: string; names: readonly string[] }) {
  const { t } = useTranslation('log-audit');
  const styles = useStyles();
  const shown = names.slice(0, SHOWN);
  return (
    <>
      {intro}
      <ul className={styles.list}>
        {shown.map((name, i) => (
          // Two records may read alike (same account, address and second): the position keeps them apart.
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, rendered once per question.
          <li key={i}>{name}</li>
        ))}
      </ul>
      {names.length > shown.length ? t('andMore', { count: names.length - shown.length }) : null}
    </>
  );
}
