import { Button, Input, makeStyles, mergeClasses, Popover, PopoverSurface, PopoverTrigger, tokens, useId } from '@fluentui/react-components';
import { CalendarRegular } from '@fluentui/react-icons/svg/calendar';
import { ChevronLeftRegular } from '@fluentui/react-icons/svg/chevron-left';
import { ChevronRightRegular } from '@fluentui/react-icons/svg/chevron-right';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUiT } from '../i18n';
import { formatDay, joinDateTime, parseDate, splitDateTime } from './datetime';

// The kit's date-time field: a date box (`YYYY-MM-DD`) and a time box (`HH:mm:ss`), typed in that order whatever the
// browser's locale, and a calendar to pick the day. The browser's <input type="datetime-local"> showed mm/dd/yyyy in an
// English browser and could not be labelled part by part.

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalS, flexWrap: 'wrap', border: 'none', margin: 0, padding: 0, minWidth: 0 },
  date: { width: '11em' },
  time: { width: '8em' },
  hidden: { display: 'none' },
  surface: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, padding: tokens.spacingHorizontalM },
  header: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', columnGap: tokens.spacingHorizontalS },
  month: { fontWeight: tokens.fontWeightSemibold },
  grid: { borderCollapse: 'collapse' },
  weekday: { fontWeight: tokens.fontWeightRegular, color: tokens.colorNeutralForeground3, padding: tokens.spacingVerticalXXS, textAlign: 'center' },
  cell: { padding: 0, textAlign: 'center' },
  day: { minWidth: '32px', width: '32px', height: '32px', padding: 0 },
  outside: { color: tokens.colorNeutralForeground4 },
  footer: { display: 'flex', justifyContent: 'flex-end' },
});

export interface DateTimeFieldProps {
  /** `YYYY-MM-DD HH:mm:ss`, '' when unset, or the texts being typed when they are not (yet) a moment. */
  value: string;
  /**
   * '' when both boxes are empty, the wire date-time when both read (an empty time is 00:00:00), else the texts as
   * typed (never a wire value: a form flags it).
   */
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** Names the group, the time box and the calendar. */
  label: string;
  name?: string;
  disabled?: boolean;
}

/** First of the month holding `day`. */
const monthOf = (day: Date) => new Date(day.getFullYear(), day.getMonth(), 1);
const addDays = (day: Date, n: number) => new Date(day.getFullYear(), day.getMonth(), day.getDate() + n);

/** A moment as a date box and a time box, with a calendar; `YYYY-MM-DD HH:mm:ss` on the wire. */
export function DateTimeField({ value, onChange, onBlur, label, name, disabled }: DateTimeFieldProps) {
  const t = useUiT();
  const { i18n } = useTranslation('kit');
  const styles = useStyles();
  const language = i18n.language || 'zh-CN';
  const timeLabelId = useId('datetime-time');
  // The typed texts; they follow the value whenever it changes from outside (a reset, a record loaded).
  const [texts, setTexts] = useState(() => splitDateTime(value));
  const reported = useRef(value);
  useEffect(() => {
    if (value !== reported.current) {
      reported.current = value;
      setTexts(splitDateTime(value));
    }
  }, [value]);
  const report = (date: string, time: string) => {
    setTexts({ date, time });
    const next = joinDateTime(date, time);
    reported.current = next;
    onChange(next);
  };

  const [open, setOpen] = useState(false);
  const picked = parseDate(texts.date);
  const [focused, setFocused] = useState<Date>(() => (picked ? new Date(`${picked}T00:00:00`) : new Date()));
  const gridRef = useRef<HTMLTableElement>(null);
  const moveFocus = useRef(false);
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    gridRef.current?.querySelector<HTMLButtonElement>(`[data-day="${formatDay(focused)}"]`)?.focus();
  }, [focused]);

  const firstDay = language.startsWith('zh') ? 1 : 0; // weeks start on Monday in China, on Sunday in the US
  const weekdays = useMemo(() => {
    const long = new Intl.DateTimeFormat(language, { weekday: 'long' });
    const short = new Intl.DateTimeFormat(language, { weekday: 'narrow' });
    // 2024-01-07 was a Sunday.
    return Array.from({ length: 7 }, (_, i) => {
      const d = new Date(2024, 0, 7 + ((firstDay + i) % 7));
      return { long: long.format(d), short: short.format(d) };
    });
  }, [language, firstDay]);
  const month = monthOf(focused);
  const monthTitle = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'long' }).format(month);
  const dayName = new Intl.DateTimeFormat(language, { dateStyle: 'full' });
  const monthStart = month.getTime();
  const weeks = useMemo(() => {
    const first = new Date(monthStart);
    const start = addDays(first, -((first.getDay() - firstDay + 7) % 7));
    return Array.from({ length: 6 }, (_, w) => Array.from({ length: 7 }, (_, d) => addDays(start, w * 7 + d)));
  }, [monthStart, firstDay]);

  const onGridKey = (e: KeyboardEvent) => {
    const step = ({ ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 } as Record<string, number>)[e.key];
    if (step === undefined) return;
    e.preventDefault();
    moveFocus.current = true;
    setFocused(addDays(focused, step));
  };
  const toMonth = (delta: number) => setFocused(new Date(focused.getFullYear(), focused.getMonth() + delta, 1));
  const pick = (day: Date) => {
    report(formatDay(day), texts.time);
    setOpen(false);
  };

  return (
    <fieldset aria-label={label} className={styles.root}>
      <Input
        className={styles.date}
        name={name}
        value={texts.date}
        placeholder={t('ui.dateTime.datePlaceholder')}
        maxLength={10}
        disabled={disabled}
        onChange={(_, d) => report(d.value, texts.time)}
        onBlur={onBlur}
        contentAfter={
          <Popover
            open={open}
            positioning="below-end"
            onOpenChange={(_, d) => {
              if (d.open) {
                // Opens on the picked day (or today), with the focus on it.
                moveFocus.current = true;
                setFocused(picked ? new Date(`${picked}T00:00:00`) : new Date());
              }
              setOpen(d.open);
            }}
          >
            <PopoverTrigger disableButtonEnhancement>
              <Button appearance="transparent" size="small" icon={<CalendarRegular />} aria-label={t('ui.dateTime.pick', { label })} disabled={disabled} />
            </PopoverTrigger>
            <PopoverSurface
              className={styles.surface}
              // A dialog without a focus trap: a trap hides the form around it from assistive technology until it settles.
              role="dialog"
              aria-label={t('ui.dateTime.calendar', { label })}>
              <div className={styles.header}>
                <Button appearance="subtle" size="small" icon={<ChevronLeftRegular />} aria-label={t('ui.dateTime.prevMonth')} onClick={() => toMonth(-1)} />
                <span className={styles.month} aria-live="polite">
                  {monthTitle}
                </span>
                <Button appearance="subtle" size="small" icon={<ChevronRightRegular />} aria-label={t('ui.dateTime.nextMonth')} onClick={() => toMonth(1)} />
              </div>
              <table className={styles.grid} ref={gridRef} onKeyDown={onGridKey} aria-label={monthTitle}>
                <thead>
                  <tr>
                    {weekdays.map((w) => (
                      <th key={w.long} scope="col" abbr={w.long} className={styles.weekday}>
                        {w.short}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {weeks.map((week) => (
                    <tr key={formatDay(week[0]!)}>
                      {week.map((day) => {
                        const key = formatDay(day);
                        const isPicked = key === picked;
                        return (
                          <td key={key} className={styles.cell}>
                            <Button
                              appearance={isPicked ? 'primary' : 'subtle'}
                              size="small"
                              className={mergeClasses(styles.day, day.getMonth() !== month.getMonth() && styles.outside)}
                              data-day={key}
                              aria-label={key}
                              title={dayName.format(day)}
                              aria-pressed={isPicked}
                              // One day in the tab order (the focused one); the arrow keys move between days.
                              tabIndex={key === formatDay(focused) ? 0 : -1}
                              onClick={() => pick(day)}
                            >
                              {day.getDate()}
                            </Button>
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
              <div className={styles.footer}>
                <Button size="small" onClick={() => pick(new Date())}>
                  {t('ui.dateTime.today')}
                </Button>
              </div>
            </PopoverSurface>
          </Popover>
        }
      />
      <span id={timeLabelId} className={styles.hidden}>
        {t('ui.dateTime.time', { label })}
      </span>
      <Input
        className={styles.time}
        id={`${timeLabelId}-input`}
        aria-labelledby={timeLabelId}
        value={texts.time}
        placeholder={t('ui.dateTime.timePlaceholder')}
        maxLength={8}
        disabled={disabled}
        onChange={(_, d) => report(texts.date, d.value)}
        onBlur={onBlur}
      />
    </fieldset>
  );
}
