import { formatBytes, useApi, useFormatDuration, useTranslation } from '@/core';
import {
  Button,
  DrawerBody,
  DrawerHeader,
  DrawerHeaderTitle,
  Dropdown,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Option,
  OverlayDrawer,
  ProgressBar,
  Spinner,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons/svg/dismiss';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { type SessionStats, sessionApi } from '../api';

/** Poll intervals offered, in seconds (1.3.9's); 5 by default. */
export const STATS_INTERVALS = [1, 5, 15, 30] as const;

export interface NetRate {
  rx: number;
  tx: number;
}

/**
 * Bytes per second of each interface between two samples taken `seconds` apart (the real time between polls, not the
 * chosen interval: a slow answer stretches it). A counter that went back (an interface reset) gives no rate.
 */
export function networkRates(before: SessionStats['network'], after: SessionStats['network'], seconds: number): Record<string, NetRate> {
  const rates: Record<string, NetRate> = {};
  if (!before || !after || seconds <= 0) return rates;
  for (const [name, now] of Object.entries(after)) {
    const then = before[name];
    if (!then || now.rx < then.rx || now.tx < then.tx) continue;
    rates[name] = { rx: (now.rx - then.rx) / seconds, tx: (now.tx - then.tx) / seconds };
  }
  return rates;
}

const useStyles = makeStyles({
  drawer: { width: 'min(900px, 90vw)' },
  body: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  head: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalM },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(4, minmax(0, 1fr))', columnGap: tokens.spacingHorizontalL, rowGap: tokens.spacingVerticalS },
  item: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS, minWidth: 0 },
  label: { color: tokens.colorNeutralForeground3 },
});

const pct = (n: number) => `${(Number.isFinite(n) ? n : 0).toFixed(2)}%`;

/**
 * The host's uptime (ms) as the start and end of a duration for the kit's formatter, to the minute (to the second in
 * the first minute); null when the value cannot be an uptime.
 */
export function uptimeSpan(uptimeMs: number, now: number): [number, number] | null {
  if (!Number.isFinite(uptimeMs) || uptimeMs <= 0) return null;
  const unit = uptimeMs >= 60_000 ? 60_000 : 1000;
  return [now - Math.floor(uptimeMs / unit) * unit, now];
}

/** True when a CPU sample says nothing: every share 0 (1.3.9's answer to a session's first poll). */
const noCpuSample = (cpu: SessionStats['cpu']) => Object.values(cpu).every((v) => !v);
const ratio = (used: number, total: number) => (total > 0 ? Math.min(1, Math.max(0, used / total)) : 0);

/**
 * 状态信息: the session host's system, load, CPU, memory, disks and network (screens §5.2), polled at the chosen interval
 * only while the drawer is open.
 */
export function StatsPanel({ open, onClose, sessionId }: { open: boolean; onClose: () => void; sessionId: string }) {
  const { t } = useTranslation('terminal');
  const styles = useStyles();
  const api = useApi();
  const sessions = useMemo(() => sessionApi(api), [api]);
  const duration = useFormatDuration();
  const [interval, setInterval_] = useState<number>(5);
  const [stats, setStats] = useState<SessionStats | null>(null);
  const [rates, setRates] = useState<Record<string, NetRate>>({});
  const [error, setError] = useState('');
  const previous = useRef<{ at: number; network: SessionStats['network'] } | null>(null);

  useEffect(() => {
    if (!open) return;
    previous.current = null;
    setRates({});
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const next = await sessions.stats(sessionId, abort.signal);
        const at = performance.now();
        if (previous.current) setRates(networkRates(previous.current.network, next.network, (at - previous.current.at) / 1000));
        previous.current = { at, network: next.network };
        setStats(next);
        setError('');
      } catch (e) {
        if (abort.signal.aborted) return;
        setError(e instanceof Error ? e.message : String(e));
      }
      // The next poll waits for this one: a slow host never gets overlapping requests.
      if (!abort.signal.aborted) timer = setTimeout(poll, interval * 1000);
    };
    void poll();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [open, sessionId, interval, sessions]);

  const uptime = stats ? uptimeSpan(stats.uptime, Date.now()) : null;
  // A sample of nothing but zeros (a 1.3.9 server's first poll) measured nothing: '-', not a CPU 0 % idle.
  const share = stats && noCpuSample(stats.cpu) ? () => '-' : pct;
  const item = (label: string, value: ReactNode) => (
    <div className={styles.item} key={label}>
      <span className={styles.label}>{label}</span>
      <span>{value}</span>
    </div>
  );
  const bar = (label: string, value: number) => (
    <Field label={label} key={label} validationMessage={pct(value * 100)} validationState="none">
      <ProgressBar aria-label={label} value={value} color={value > 0.9 ? 'error' : value > 0.7 ? 'warning' : 'brand'} />
    </Field>
  );
  const section = (title: string, children: ReactNode) => (
    <section aria-label={title}>
      <Subtitle2 as="h3">{title}</Subtitle2>
      <div className={styles.grid}>{children}</div>
    </section>
  );

  return (
    <OverlayDrawer open={open} position="end" size="large" className={styles.drawer} onOpenChange={(_, data) => !data.open && onClose()}>
      <DrawerHeader>
        <DrawerHeaderTitle action={<Button appearance="subtle" aria-label={t('actions.close')} icon={<DismissRegular />} onClick={onClose} />}>
          {t('stats.title')}
        </DrawerHeaderTitle>
        <div className={styles.head}>
          <Field label={t('stats.interval')} orientation="horizontal">
            <Dropdown
              value={t('stats.seconds', { n: interval })}
              selectedOptions={[String(interval)]}
              onOptionSelect={(_, data) => setInterval_(Number(data.optionValue))}
            >
              {STATS_INTERVALS.map((s) => (
                <Option key={s} value={String(s)}>
                  {t('stats.seconds', { n: s })}
                </Option>
              ))}
            </Dropdown>
          </Field>
        </div>
      </DrawerHeader>
      <DrawerBody className={styles.body}>
        {error ? (
          <MessageBar intent="error">
            <MessageBarBody>{error}</MessageBarBody>
          </MessageBar>
        ) : null}
        {!stats ? (
          error ? null : <Spinner size="small" label={t('stats.loading')} />
        ) : (
          <>
            {section(
              t('stats.system'),
              <>
                {item(t('stats.hostname'), stats.hostname)}
                {item(t('stats.uptime'), uptime ? duration(uptime[0], uptime[1]) : '-')}
                {item(t('stats.processes'), `${stats.runningProcess} / ${stats.totalProcess}`)}
              </>,
            )}
            {section(
              t('stats.load'),
              <>
                {item('Load1', stats.load1)}
                {item('Load5', stats.load5)}
                {item('Load15', stats.load10)}
              </>,
            )}
            {section(
              'CPU',
              <>
                {item(t('stats.cpu.user'), share(stats.cpu.user))}
                {item(t('stats.cpu.system'), share(stats.cpu.system))}
                {item(t('stats.cpu.idle'), share(stats.cpu.idle))}
                {item(t('stats.cpu.ioWait'), share(stats.cpu.ioWait))}
                {item(t('stats.cpu.irq'), share(stats.cpu.irq))}
                {item(t('stats.cpu.softIrq'), share(stats.cpu.softIrq))}
                {item('nice', share(stats.cpu.nice))}
                {item('guest', share(stats.cpu.guest))}
              </>,
            )}
            {section(
              t('stats.memory'),
              <>
                {item(t('stats.mem.total'), formatBytes(stats.memTotal))}
                {item(t('stats.mem.free'), formatBytes(stats.memFree))}
                {item(t('stats.mem.available'), formatBytes(stats.memAvailable))}
                {item('Buffers/Cached', `${formatBytes(stats.memBuffers)} / ${formatBytes(stats.memCached)}`)}
                {bar(t('stats.mem.usage'), ratio(stats.memTotal - stats.memAvailable, stats.memTotal))}
                {item(t('stats.mem.swapTotal'), formatBytes(stats.swapTotal))}
                {item(t('stats.mem.swapFree'), formatBytes(stats.swapFree))}
                {bar(t('stats.mem.swapUsage'), ratio(stats.swapTotal - stats.swapFree, stats.swapTotal))}
              </>,
            )}
            {section(
              t('stats.disks'),
              (stats.fileSystems ?? []).map((fs) => (
                <div key={fs.mountPoint} className={styles.item}>
                  {item(t('stats.disk.mount'), fs.mountPoint)}
                  {item(t('stats.disk.used'), formatBytes(fs.used))}
                  {item(t('stats.disk.free'), formatBytes(fs.free))}
                  {bar(t('stats.disk.usage', { mount: fs.mountPoint }), ratio(fs.used, fs.used + fs.free))}
                </div>
              )),
            )}
            {section(
              t('stats.network'),
              Object.entries(stats.network ?? {}).map(([name, nic]) => (
                <div key={name} className={styles.item}>
                  {item(t('stats.net.name'), name)}
                  {item('IPv4', nic.ipv4 || '-')}
                  {item(t('stats.net.rx'), `${formatBytes(nic.rx)} (${t('stats.net.rate', { rate: formatBytes(rates[name]?.rx ?? 0) })})`)}
                  {item(t('stats.net.tx'), `${formatBytes(nic.tx)} (${t('stats.net.rate', { rate: formatBytes(rates[name]?.tx ?? 0) })})`)}
                </div>
              )),
            )}
          </>
        )}
      </DrawerBody>
    </OverlayDrawer>
  );
}
