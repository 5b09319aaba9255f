import { EmptyState, keepPreviousData, type PermissionKey, PageContainer, useCan, useEndpoints, useQuery, useTranslation } from '@/core';
import { ASSET_PROTOCOLS } from '@/domain';
import { DataVizPalette, DonutChart, getColorFromToken, LineChart, type LineChartPoints } from '@fluentui/react-charts';
import { makeStyles, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { DesktopRegular } from '@fluentui/react-icons/svg/desktop';
import { HistoryRegular } from '@fluentui/react-icons/svg/history';
import { PeopleRegular } from '@fluentui/react-icons/svg/people';
import { PersonProhibitedRegular } from '@fluentui/react-icons/svg/person-prohibited';
import dayjs from 'dayjs';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';
import { type AssetCounts, type Counter, DATE_SERIES, type DateCount, type DateRange, type DateSeries, KEYS, overviewApi } from '../api';
import { ChartCard, type ChartData } from './ChartCard';
import { GettingStarted } from './GettingStarted';
import { Loaded } from './Loaded';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)', gap: tokens.spacingHorizontalL },
  // The four counters fill the height of the donut's card beside them.
  overview: { display: 'flex', flexDirection: 'column' },
  counters: { display: 'grid', flexGrow: 1, gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gridAutoRows: '1fr', gap: tokens.spacingHorizontalM },
  counter: {
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    color: tokens.colorNeutralForeground1,
    textDecorationLine: 'none',
  },
  link: { ':hover': { border: `${tokens.strokeWidthThin} solid ${tokens.colorBrandStroke1}` } },
  icon: { fontSize: '32px', color: tokens.colorBrandForeground1, display: 'flex' },
  counterText: { display: 'flex', flexDirection: 'column' },
  value: { fontSize: tokens.fontSizeHero700, lineHeight: tokens.lineHeightHero700, fontWeight: tokens.fontWeightSemibold },
  sessions: { marginTop: tokens.spacingVerticalL },
});

/** Where each counter leads (a link only for users who may open that list). */
interface CounterDef {
  key: string;
  label: string;
  value: string;
  icon: ReactNode;
  to: string;
  menu: PermissionKey;
}

function CounterCard({ def }: { def: CounterDef }) {
  const styles = useStyles();
  const canOpen = useCan(def.menu);
  const body = (
    <>
      <span className={styles.icon} aria-hidden>
        {def.icon}
      </span>
      <span className={styles.counterText}>
        <Text>{def.label}</Text>
        <span className={styles.value}>{def.value}</span>
      </span>
    </>
  );
  const name = `${def.label} ${def.value}`;
  return canOpen ? (
    <Link to={def.to} className={`${styles.counter} ${styles.link}`} aria-label={name}>
      {body}
    </Link>
  ) : (
    <section className={styles.counter} aria-label={name}>
      {body}
    </section>
  );
}

function Counters({ counter }: { counter: Counter }) {
  const styles = useStyles();
  const { t } = useTranslation('dashboard');
  // Neither the user list nor the asset list reads its search from the URL yet: those two link to the plain list.
  const defs: CounterDef[] = [
    { key: 'online', label: t('counter.onlineUser'), value: `${counter.onlineUser}/${counter.totalUser}`, icon: <PeopleRegular />, to: '/user', menu: 'user' },
    { key: 'active', label: t('counter.activeAsset'), value: `${counter.activeAsset}/${counter.totalAsset}`, icon: <DesktopRegular />, to: '/asset', menu: 'asset' },
    { key: 'failed', label: t('counter.failLogin'), value: String(counter.failLoginCount), icon: <PersonProhibitedRegular />, to: '/login-log?state=0', menu: 'login-log' },
    { key: 'history', label: t('counter.offlineSession'), value: String(counter.offlineSession), icon: <HistoryRegular />, to: '/offline-session', menu: 'offline-session' },
  ];
  return (
    <div className={styles.counters}>
      {defs.map((d) => (
        <CounterCard key={d.key} def={d} />
      ))}
    </div>
  );
}

/**
 * Fluent's data-visualisation colours, in order, for the slices and the lines; resolved to CSS colours because the
 * donut paints a slice (and its legend) with the colour given as is, leaving a palette token black.
 */
const PALETTE = [DataVizPalette.color1, DataVizPalette.color2, DataVizPalette.color3, DataVizPalette.color4, DataVizPalette.color5].map((c) =>
  getColorFromToken(c),
);
const dayOf = (d: Date) => dayjs(d).format('MM-DD');

function AssetDonut({ counts }: { counts: AssetCounts }) {
  const { t } = useTranslation('dashboard');
  const title = t('assets.title');
  const slices = ASSET_PROTOCOLS.map((p, i) => ({ legend: t(`assets.protocol.${p}`), data: counts[p] ?? 0, color: PALETTE[i] }));
  const table: ChartData = { columns: [t('assets.type'), t('assets.count')], rows: slices.map((s) => [s.legend, s.data]) };
  const total = counts.all ?? slices.reduce((n, s) => n + s.data, 0);
  return (
    <ChartCard title={title} data={table}>
      {/* The card names the chart (a visible title here would repeat the card's). No asset yet: say so rather than an
          empty ring with the library's English "no data" line. */}
      {total === 0 ? (
        // Nothing went wrong: a neutral picture, not the kit's "no data" one (the checklist above says what to do).
        <EmptyState message={t('assets.none')} icon={<DesktopRegular />} />
      ) : (
      <DonutChart
        data={{ chartData: slices }}
        innerRadius={55}
        height={220}
        valueInsideDonut={String(total)}
        hideLabels={false}
      />
      )}
    </ChartCard>
  );
}

/**
 * The y axis of a chart of counts: whole numbers from 0, at most five ticks, the last one at or above `max` (the
 * library's own ticks split a maximum of 1 into 0.25, 0.5… sessions).
 */
export function countTicks(max: number): number[] {
  const top = Math.max(1, Math.ceil(max));
  const step = Math.ceil(top / 4);
  const ticks: number[] = [];
  for (let v = 0; ticks.length === 0 || v - step < top; v += step) ticks.push(v);
  return ticks;
}

/** The date counter as one line per series, in the order of DATE_SERIES (others the server may add after them). */
export function seriesOf(rows: readonly DateCount[]): { types: string[]; dates: string[]; value: (type: string, date: string) => number } {
  const types = [...new Set([...DATE_SERIES.filter((s) => rows.some((r) => r.type === s)), ...rows.map((r) => r.type)])];
  const dates = [...new Set(rows.map((r) => r.date))];
  const byKey = new Map(rows.map((r) => [`${r.type}\u0000${r.date}`, r.value]));
  return { types, dates, value: (type, date) => byKey.get(`${type}\u0000${date}`) ?? 0 };
}

// The series' names are the wire's (Chinese) type values; their labels come from the locale files.
const SERIES_KEY = { 登录次数: 'logins', 活跃用户: 'activeUsers', 活跃资产: 'activeAssets', 会话次数: 'sessions' } as const satisfies Record<DateSeries, string>;
const isDateSeries = (type: string): type is DateSeries => (DATE_SERIES as readonly string[]).includes(type);

function SessionChart({ rows, range, onRange }: { rows: readonly DateCount[]; range: DateRange; onRange: (r: DateRange) => void }) {
  const { t } = useTranslation('dashboard');
  const title = t('dates.title');
  const s = seriesOf(rows);
  const label = (type: string) => (isDateSeries(type) ? t(`dates.series.${SERIES_KEY[type]}`) : type);
  // One tick per day for a week, about eight for a month, always ending today.
  const step = Math.ceil(s.dates.length / 8);
  const ticks = s.dates.filter((_, i) => (s.dates.length - 1 - i) % step === 0).map((d) => dayjs(d).toDate());
  const lines: LineChartPoints[] = s.types.map((type, i) => ({
    legend: label(type),
    color: PALETTE[i % PALETTE.length],
    data: s.dates.map((date) => ({ x: dayjs(date).toDate(), y: s.value(type, date) })),
  }));
  const yTicks = countTicks(Math.max(0, ...rows.map((r) => r.value)));
  const table: ChartData = {
    columns: [t('dates.date'), ...s.types.map(label)],
    rows: s.dates.map((date) => [date, ...s.types.map((type) => s.value(type, date))]),
  };
  const switcher = (
    <TabList size="small" selectedValue={range} onTabSelect={(_, d) => onRange(d.value as DateRange)} aria-label={t('dates.range')}>
      <Tab value="week">{t('dates.week')}</Tab>
      <Tab value="month">{t('dates.month')}</Tab>
    </TabList>
  );
  return (
    <ChartCard title={title} data={table} actions={switcher}>
      <LineChart
        data={{ chartTitle: title, lineChartData: lines }}
        height={270}
        legendsOverflowText={t('dates.more')}
        customDateTimeFormatter={dayOf}
        tickValues={ticks}
        yAxisTickValues={yTicks}
        yMinValue={0}
        yMaxValue={yTicks.at(-1)}
      />
    </ChartCard>
  );
}

/** 控制面板: the four counters, assets by type, and logins and sessions over the last week or month (today included). */
export function Dashboard() {
  const styles = useStyles();
  const { t } = useTranslation('dashboard');
  const overview = useEndpoints(overviewApi);
  const [range, setRange] = useState<DateRange>('week');
  const counter = useQuery({ queryKey: KEYS.counter, queryFn: overview.counter });
  const assets = useQuery({ queryKey: KEYS.assets, queryFn: overview.assets });
  // The chart keeps the shown range while the other loads, so the week / month switch stays in place.
  const dates = useQuery({ queryKey: KEYS.dates(range), queryFn: () => overview.dates(range), placeholderData: keepPreviousData });
  return (
    <PageContainer>
      {counter.data ? <GettingStarted counter={counter.data} /> : null}
      <div className={styles.grid}>
        <section className={styles.overview} aria-label={t('counter.title')}>
          <Loaded query={counter} what={t('counter.title')}>
            {(c) => <Counters counter={c} />}
          </Loaded>
        </section>
        <Loaded query={assets} what={t('assets.title')}>
          {(a) => <AssetDonut counts={a} />}
        </Loaded>
      </div>
      <div className={styles.sessions}>
        <Loaded query={dates} what={t('dates.title')}>
          {(rows) => <SessionChart rows={rows} range={range} onRange={setRange} />}
        </Loaded>
      </div>
    </PageContainer>
  );
}
