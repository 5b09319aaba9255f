import { makeStyles, Tag, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  root: { display: 'inline-flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
});

/**
 * The tags of a record as a list of strings. The wire often carries them as one comma string, with `-` standing for
 * "none" (1.3.9's placeholder): both are read here, blanks and `-` left out, duplicates shown once.
 */
export function splitTags(tags: readonly string[] | string | null | undefined): string[] {
  const parts = typeof tags === 'string' ? tags.split(',') : (tags ?? []);
  const out: string[] = [];
  for (const part of parts) {
    const tag = part.trim();
    if (tag !== '' && tag !== '-' && !out.includes(tag)) out.push(tag);
  }
  return out;
}

export interface TagListProps {
  /** A list, or a comma string as the wire has it (`a,b`; `-` = none). */
  tags: readonly string[] | string | null | undefined;
  /** Shown when there is no tag (default `-`). */
  empty?: string;
}

/** A record's tags as small chips (a list's cell, a detail's value); `-` when there are none. */
export function TagList({ tags, empty = '-' }: TagListProps) {
  const styles = useStyles();
  const list = splitTags(tags);
  if (list.length === 0) return <>{empty}</>;
  return (
    <span className={styles.root}>
      {list.map((tag) => (
        <Tag key={tag} size="small" shape="rounded" appearance="outline">
          {tag}
        </Tag>
      ))}
    </span>
  );
}
