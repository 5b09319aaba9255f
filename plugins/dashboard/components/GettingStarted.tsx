import { type PermissionKey, useCan, useTranslation } from '@/core';
import { makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import { CheckmarkCircleFilled } from '@fluentui/react-icons/svg/checkmark-circle';
import { CircleRegular } from '@fluentui/react-icons/svg/circle';
import { Link } from 'react-router-dom';
import type { Counter } from '../api';

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalL,
    marginBottom: tokens.spacingVerticalL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorBrandStroke2}`,
  },
  title: { fontWeight: tokens.fontWeightSemibold },
  intro: { color: tokens.colorNeutralForeground2 },
  list: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, margin: 0, padding: 0, listStyleType: 'none' },
  step: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalS },
  icon: { display: 'flex', fontSize: '20px', color: tokens.colorNeutralForeground3 },
  done: { color: tokens.colorPaletteGreenForeground1 },
  doneText: { color: tokens.colorNeutralForeground3, textDecorationLine: 'line-through' },
  hidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clipPath: 'inset(50%)',
    whiteSpace: 'nowrap',
  },
});

/** The counter's fields the checklist reads: ours, after 1.3.9's six (a 1.3.9 server answers without them). */
type ChecklistCounts = Required<Pick<Counter, 'totalCredential' | 'totalAuthorised' | 'totalSession'>> & Counter;

const hasChecklistCounts = (c: Counter): c is ChecklistCounts =>
  typeof c.totalCredential === 'number' && typeof c.totalAuthorised === 'number' && typeof c.totalSession === 'number';

type StepKey = 'credential' | 'asset' | 'user' | 'grant' | 'terminal';

interface Step {
  key: StepKey;
  done: boolean;
  /** The page that does it (by URL: a plugin never imports another), a link only for those who may open it. */
  to: string;
  menu: PermissionKey;
}

/** The five first steps of an installation, each done once the server counts what it makes. */
export function stepsOf(c: ChecklistCounts): Step[] {
  return [
    { key: 'credential', done: c.totalCredential > 0, to: '/credential', menu: 'credential' },
    { key: 'asset', done: c.totalAsset > 0, to: '/asset', menu: 'asset' },
    // The super admin exists from the start: a user of one's own is a second account.
    { key: 'user', done: c.totalUser > 1, to: '/user', menu: 'user' },
    { key: 'grant', done: c.totalAuthorised > 0, to: '/authorisation', menu: 'authorisation' },
    // A terminal is opened from the asset list's 接入.
    { key: 'terminal', done: c.totalSession > 0, to: '/asset', menu: 'asset' },
  ];
}

function StepItem({ step }: { step: Step }) {
  const styles = useStyles();
  const { t } = useTranslation('dashboard');
  const canOpen = useCan(step.menu);
  const label = t(`start.steps.${step.key}`);
  return (
    <li className={styles.step}>
      <span className={mergeClasses(styles.icon, step.done && styles.done)} aria-hidden>
        {step.done ? <CheckmarkCircleFilled /> : <CircleRegular />}
      </span>
      {canOpen ? <Link to={step.to} className={step.done ? styles.doneText : undefined}>{label}</Link> : <Text className={step.done ? styles.doneText : undefined}>{label}</Text>}
      <span className={styles.hidden}>{t(step.done ? 'start.done' : 'start.todo')}</span>
    </li>
  );
}

/**
 * 开始使用: on an installation not yet set up (no credential, asset, user of its own, grant or session yet), the steps
 * to take, each ticked once done and linking to its page. Gone once every step is done; absent when the server does
 * not count them (a 1.3.9 server).
 */
export function GettingStarted({ counter }: { counter: Counter }) {
  const styles = useStyles();
  const { t } = useTranslation('dashboard');
  if (!hasChecklistCounts(counter)) return null;
  const steps = stepsOf(counter);
  if (steps.every((s) => s.done)) return null;
  const done = steps.filter((s) => s.done).length;
  return (
    <section className={styles.card} aria-label={t('start.title')}>
      <Text as="h2" size={400} className={styles.title}>
        {t('start.title')}
      </Text>
      <Text className={styles.intro}>{t('start.intro', { done, total: steps.length })}</Text>
      <ol className={styles.list}>
        {steps.map((s) => (
          <StepItem key={s.key} step={s} />
        ))}
      </ol>
    </section>
  );
}
