import { formatBytes, PageContainer, useEndpoints, useQuery, useTranslation } from '@/core';
import { AreaChart, DataVizPalette, LineChart, type LineChartPoints } from '@fluentui/react-charts';
import { MessageBar, MessageBarBody, MessageBarTitle, makeStyles, ProgressBar, Text, Tooltip, tokens } from '@fluentui/react-components';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useRef } from 'react';
import { KEYS, overviewApi, type RecordingSpace, type SystemLoad, type TimeValue } from '../api';
import { ChartCard, type ChartData } from './ChartCard';
import { Loaded } from './Loaded';
import { ioInMBps, loadState, round2 } from './load';
import { usePageVisible } from './visibility';

/** How often the page asks for the host's load while it is shown (the server samples every 5 s too). */
export const POLL_MS = 5000;

const useStyles = makeStyles({
  head: { display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', marginBottom: tokens.spacingVerticalM },
  gauges: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))', gap: tokens.spacingHorizontalM },
  gauge: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  value: { fontSize: tokens.fontSizeBase600, fontWeight: tokens.fontWeightSemibold },
  facts: { margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: tokens.spacingHorizontalS, color: tokens.colorNeutralForeground2 },
  factRow: { display: 'contents' },
  fact: { margin: 0 },
  warning: { marginBottom: tokens.spacingVerticalM },
  charts: { display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: tokens.spacingHorizontalM, marginTop: tokens.spacingVerticalL },
});

type Tone = 'brand' | 'warning' | 'error';

interface GaugeProps {
  title: string;
  /** 0–100. */
  percent: number;
  tone: Tone;
  value: ReactNode;
  facts: readonly [string, ReactNode][];
}

function Gauge({ title, percent, tone, value, facts }: GaugeProps) {
  const styles = useStyles();
  const shown = Math.min(100, Math.max(0, percent));
  return (
    <section className={styles.gauge} aria-label={title}>
      <Text weight="semibold">{title}</Text>
      <span className={styles.value}>{value}</span>
      <ProgressBar value={shown} max={100} color={tone} thickness="large" aria-label={`${title} ${round2(shown)}%`} />
      <dl className={styles.facts}>
        {facts.map(([k, v]) => (
          <div key={k} className={styles.factRow}>
            <dt>{k}</dt>
            <dd className={styles.fact}>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const toneAbove = (ratio: number, error: number, warning: number): Tone => (ratio > error ? 'error' : ratio > warning ? 'warning' : 'brand');
const pct = (n: number) => `${round2(n)}%`;
/** A sample's `HH:mm:ss` as a time today, for the charts' time axis. */
const at = (time: string) => dayjs(`${dayjs().format('YYYY-MM-DD')} ${time}`).toDate();
const clock = (d: Date) => dayjs(d).format('HH:mm:ss');

/** 1.3.9 cuts the CPU model to 10 characters; the whole name is in a tooltip and is the cell's accessible name. */
function ModelName({ model, short }: { model: string; short: string }) {
  if (model === short) return model;
  return (
    <Tooltip content={model} relationship="label">
      <span>{short}</span>
    </Tooltip>
  );
}

function Gauges({ ps }: { ps: SystemLoad }) {
  const styles = useStyles();
  const { t } = useTranslation('dashboard');
  const model = ps.cpu.info?.[0]?.modelName ?? '';
  const short = model.length > 10 ? `${model.slice(0, 10)}...` : model;
  return (
    <div className={styles.gauges}>
      <Gauge
        title={t('monitor.load')}
        percent={ps.loadStat.percent * 100}
        tone={toneAbove(ps.loadStat.percent, 0.9, 0.7)}
        value={t(`monitor.state.${loadState(ps.loadStat.percent)}`)}
        facts={[
          ['Load1', ps.loadStat.load1.toFixed(2)],
          ['Load5', ps.loadStat.load5.toFixed(2)],
          ['Load15', ps.loadStat.load15.toFixed(2)],
        ]}
      />
      <Gauge
        title={t('monitor.cpu')}
        percent={ps.cpu.usedPercent}
        tone={toneAbove(ps.cpu.usedPercent / 100, 0.9, 0.8)}
        value={t('monitor.cores', { count: ps.cpu.count })}
        facts={[
          [t('monitor.used'), pct(ps.cpu.usedPercent)],
          [t('monitor.phyCount'), ps.cpu.phyCount],
          [t('monitor.model'), <ModelName key="model" model={model} short={short} />],
        ]}
      />
      <Gauge
        title={t('monitor.memory')}
        percent={ps.mem.usedPercent}
        tone={toneAbove(ps.mem.usedPercent / 100, 0.75, 0.75)}
        value={formatBytes(ps.mem.total)}
        facts={[
          [t('monitor.used'), pct(ps.mem.usedPercent)],
          [t('monitor.available'), formatBytes(ps.mem.available)],
          [t('monitor.usedSize'), formatBytes(ps.mem.used)],
        ]}
      />
      <Gauge
        title={t('monitor.disk')}
        percent={ps.disk.usedPercent}
        tone={toneAbove(ps.disk.usedPercent / 100, 0.9, 0.8)}
        value={formatBytes(ps.disk.total)}
        facts={[
          [t('monitor.used'), pct(ps.disk.usedPercent)],
          [t('monitor.free'), formatBytes(ps.disk.available)],
          [t('monitor.usedSize'), formatBytes(ps.disk.used)],
        ]}
      />
      {ps.disk.recording && <RecordingGauge space={ps.disk.recording} />}
    </div>
  );
}

/** The recording folder's disk: red below the configured threshold (recordings stop when it is full). */
function RecordingGauge({ space }: { space: RecordingSpace }) {
  const { t } = useTranslation('dashboard');
  return (
    <Gauge
      title={t('monitor.recording')}
      percent={space.usedPercent}
      tone={space.low ? 'error' : toneAbove(space.usedPercent / 100, 0.9, 0.8)}
      value={formatBytes(space.total)}
      facts={[
        [t('monitor.used'), pct(space.usedPercent)],
        [t('monitor.free'), formatBytes(space.available)],
        [t('monitor.recordingMin'), formatBytes(space.minFree)],
      ]}
    />
  );
}

/** Said above the gauges while the recording folder's free space is below the threshold. */
function RecordingWarning({ space }: { space: RecordingSpace | null | undefined }) {
  const styles = useStyles();
  const { t } = useTranslation('dashboard');
  if (!space?.low) return null;
  return (
    <MessageBar intent="warning" className={styles.warning}>
      <MessageBarBody>
        <MessageBarTitle>{t('monitor.recordingLowTitle')}</MessageBarTitle>
        {t('monitor.recordingLow', { free: formatBytes(space.available), min: formatBytes(space.minFree) })}
      </MessageBarBody>
    </MessageBar>
  );
}

function PercentChart({ title, series, rows }: { title: string; series: string; rows: readonly TimeValue[] }) {
  const { t } = useTranslation('dashboard');
  const data: ChartData = { columns: [t('monitor.time'), series], rows: rows.map((r) => [r.time, round2(r.value)]) };
  const line: LineChartPoints = { legend: series, color: DataVizPalette.color1, data: rows.map((r) => ({ x: at(r.time), y: round2(r.value) })) };
  return (
    <ChartCard title={title} data={data}>
      <AreaChart data={{ chartTitle: title, lineChartData: [line] }} height={150} yMaxValue={100} hideLegend customDateTimeFormatter={clock} />
    </ChartCard>
  );
}

function IoChart({ title, read, write, rows }: { title: string; read: string; write: string; rows: SystemLoad['netIO'] }) {
  const { t } = useTranslation('dashboard');
  const mb = ioInMBps(rows);
  const data: ChartData = { columns: [t('monitor.time'), read, write], rows: mb.map((r) => [r.time, r.read, r.write]) };
  const lines: LineChartPoints[] = [
    { legend: read, color: DataVizPalette.color1, data: mb.map((r) => ({ x: at(r.time), y: r.read })) },
    { legend: write, color: DataVizPalette.color2, data: mb.map((r) => ({ x: at(r.time), y: r.write })) },
  ];
  return (
    <ChartCard title={title} data={data}>
      <LineChart data={{ chartTitle: title, lineChartData: lines }} height={150} customDateTimeFormatter={clock} />
    </ChartCard>
  );
}

/** 系统监控: this server's own load, refreshed every 5 s while the page is shown (never in a background tab). */
export function Monitoring() {
  const styles = useStyles();
  const { t } = useTranslation('dashboard');
  const overview = useEndpoints(overviewApi);
  const visible = usePageVisible();
  // The weekday comes from our locale files, not dayjs' locale (only loaded with some of core's formatters).
  const today = () => {
    const now = dayjs();
    return t('monitor.today', { date: now.format(t('monitor.dateFormat')), weekday: t(`monitor.weekday.${now.day() as 0 | 1 | 2 | 3 | 4 | 5 | 6}`) });
  };
  const ps = useQuery({
    queryKey: KEYS.ps,
    queryFn: overview.ps,
    refetchInterval: visible ? POLL_MS : false,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: false,
  });
  // Back in the foreground: fresh numbers at once rather than up to 5 s later.
  const wasVisible = useRef(visible);
  const { refetch } = ps;
  useEffect(() => {
    if (visible && !wasVisible.current) void refetch();
    wasVisible.current = visible;
  }, [visible, refetch]);

  return (
    <PageContainer>
      <div className={styles.head}>
        <Text as="h2" size={500} weight="semibold">
          {t('monitor.title')}
        </Text>
        <Text>{today()}</Text>
      </div>
      <Loaded query={ps} what={t('monitor.title')}>
        {(p) => (
          <>
            <RecordingWarning space={p.disk.recording} />
            <Gauges ps={p} />
            <div className={styles.charts}>
              <PercentChart title={t('monitor.cpuChart')} series={t('monitor.cpuSeries')} rows={p.cpuStat} />
              <PercentChart title={t('monitor.memChart')} series={t('monitor.memSeries')} rows={p.memStat} />
              <IoChart title={t('monitor.netChart')} read={t('monitor.rx')} write={t('monitor.tx')} rows={p.netIO} />
              <IoChart title={t('monitor.diskChart')} read={t('monitor.read')} write={t('monitor.write')} rows={p.diskIO} />
            </div>
          </>
        )}
      </Loaded>
    </PageContainer>
  );
}
