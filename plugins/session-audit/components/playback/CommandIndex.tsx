import { useTranslation } from '@/core';
import { Input, makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { SessionCommand } from '../api';
import { formatClock } from './clock';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, minHeight: 0, height: '100%' },
  list: { listStyleType: 'none', margin: 0, padding: 0, overflowY: 'auto', flexGrow: 1, minHeight: 0 },
  item: {
    display: 'flex',
    columnGap: tokens.spacingHorizontalS,
    width: '100%',
    textAlign: 'start',
    border: 'none',
    backgroundColor: 'transparent',
    color: tokens.colorNeutralForeground1,
    padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  // The command playback is in: a fill and a bar at its start (not colour alone), plus aria-current.
  current: {
    backgroundColor: tokens.colorBrandBackground2,
    borderLeft: `${tokens.strokeWidthThickest} solid ${tokens.colorBrandStroke1}`,
    fontWeight: tokens.fontWeightSemibold,
  },
  time: { fontFamily: tokens.fontFamilyMonospace, color: tokens.colorNeutralForeground3, flexShrink: 0 },
  command: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
});

export interface CommandIndexProps {
  commands: readonly SessionCommand[];
  total: number;
  /** Index in `commands` of the one playback has passed last, or -1. */
  current: number;
  onJump: (command: SessionCommand) => void;
}

/** The command index beside the player: time and command line, a filter, a click jumps there. */
export const CommandIndex = memo(function CommandIndex({ commands, total, current, onJump }: CommandIndexProps) {
  const { t } = useTranslation('session-audit');
  const styles = useStyles();
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return commands.map((c, index) => ({ c, index })).filter(({ c }) => needle === '' || c.command.toLowerCase().includes(needle));
  }, [commands, filter]);
  const currentRef = useRef<HTMLButtonElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the current command changes, to the element the ref then holds
  useEffect(() => {
    currentRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [current]);

  return (
    <section className={styles.root} aria-label={t('playback.commands')}>
      <Input
        aria-label={t('playback.searchCommands')}
        placeholder={t('playback.searchCommands')}
        contentBefore={<SearchRegular />}
        value={filter}
        onChange={(_, d) => setFilter(d.value)}
      />
      {commands.length === 0 ? <Text>{t('playback.noCommands')}</Text> : null}
      {total > commands.length ? <Text size={200}>{t('playback.moreCommands', { shown: commands.length, total })}</Text> : null}
      <ul className={styles.list}>
        {shown.map(({ c, index }) => {
          const time = formatClock(c.offsetMs / 1000);
          const isCurrent = index === current;
          return (
            <li key={c.id}>
              <button
                type="button"
                ref={isCurrent ? currentRef : undefined}
                className={mergeClasses(styles.item, isCurrent && styles.current)}
                aria-current={isCurrent ? 'true' : undefined}
                aria-label={t('playback.jumpTo', { time, command: c.command })}
                onClick={() => onJump(c)}
              >
                <span className={styles.time}>{time}</span>
                <span className={styles.command}>{c.command}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
});
