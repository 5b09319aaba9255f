import { createShadowTerminal, useEndpoints, useQuery, useTranslation, type XtermHandle } from '@/core';
import { Button, Field, makeStyles, ProgressBar, Select, Slider, Spinner, Switch, Text, tokens } from '@fluentui/react-components';
import { PauseRegular } from '@fluentui/react-icons/svg/pause';
import { PlayRegular } from '@fluentui/react-icons/svg/play';
import { type ReactNode, type RefObject, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { SESSION_KEYS, type SessionCommand, sessionApi } from '../api';
import { RecordingIncompleteNotice } from '../RecordingState';
import { sessionWhen, useSessionInfo } from '../SessionTitle';
import { FittedTerminal, type Zoom } from '../viewer/FittedTerminal';
import { ViewControls } from '../viewer/ViewControls';
import { type Cast, parseCast } from './asciicast';
import { formatClock } from './clock';
import { CommandIndex } from './CommandIndex';
import { buildKeyframes } from './keyframes';
import { Player } from './player';

const SPEEDS = [0.5, 1, 1.5, 2, 4] as const;
/** "Skip idle" plays a pause of the recording for at most this long. */
const MAX_IDLE_SECONDS = 2;
/** How often the playing position advances (real time). */
const TICK_MS = 33;
/** What ← and → move. */
const KEY_STEP_SECONDS = 5;

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', height: '100vh', backgroundColor: tokens.colorNeutralBackground2 },
  title: { padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}` },
  body: { display: 'flex', flexGrow: 1, minHeight: 0, columnGap: tokens.spacingHorizontalS, padding: `0 ${tokens.spacingHorizontalS}` },
  screen: { flexGrow: 1, minWidth: 0, minHeight: 0, display: 'flex', flexDirection: 'column' },
  side: { width: '320px', flexShrink: 0, minHeight: 0, display: 'flex', flexDirection: 'column', padding: tokens.spacingVerticalS },
  controls: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalM, padding: tokens.spacingVerticalS },
  slider: { flexGrow: 1, minWidth: '200px' },
  clock: { fontFamily: tokens.fontFamilyMonospace },
  centre: { margin: 'auto', padding: tokens.spacingVerticalXXL },
});

/** The index of the last command at or before `seconds` (commands ordered by offsetMs), or -1. */
export function currentCommand(commands: readonly SessionCommand[], seconds: number): number {
  const ms = seconds * 1000;
  let lo = 0;
  let hi = commands.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((commands[mid] as SessionCommand).offsetMs <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * 会话回放 (screens §5.6, ours instead of asciinema-player): the recording in a read-only xterm with play/pause,
 * speed, skip idle, a seek slider and keys, and the session's command index beside it. The terminal has the
 * recording's columns and rows and is fitted to the window (width and height), zoomable, and can go full screen.
 */
export function TermPlayback() {
  const { t } = useTranslation('session-audit');
  const styles = useStyles();
  const sessions = useEndpoints(sessionApi);
  const [params] = useSearchParams();
  const sessionId = params.get('sessionId') ?? '';
  const info = useSessionInfo(sessionId);
  const page = useRef<HTMLElement>(null);
  const recording = useQuery({
    queryKey: SESSION_KEYS.recording(sessionId),
    queryFn: () => sessions.recording(sessionId),
    enabled: sessionId !== '',
    staleTime: Number.POSITIVE_INFINITY,
  });
  const commands = useQuery({ queryKey: SESSION_KEYS.commands(sessionId), queryFn: () => sessions.commands(sessionId), enabled: sessionId !== '' });
  const cast = useMemo(() => (recording.data === undefined ? undefined : parseCast(recording.data)), [recording.data]);

  let content: ReactNode;
  if (!sessionId) content = <Text className={styles.centre}>{t('monitor.noSession')}</Text>;
  else if (recording.isError) {
    content = (
      <Text role="alert" className={styles.centre}>
        {t('playback.failed', { message: recording.error instanceof Error ? recording.error.message : '' })}
      </Text>
    );
  } else if (!cast) content = <Spinner className={styles.centre} label={t('playback.loading')} />;
  else content = <PlayerView cast={cast} commands={commands.data?.items ?? []} total={commands.data?.total ?? 0} page={page} />;

  return (
    <main ref={page} className={styles.page}>
      {info ? (
        <Text as="h1" weight="semibold" className={styles.title}>
          {t('playback.title', { user: info.creatorName, asset: info.assetName, time: sessionWhen(info) })}
        </Text>
      ) : null}
      <RecordingIncompleteNotice session={info} />
      {content}
    </main>
  );
}

interface PlayerViewProps {
  cast: Cast;
  commands: readonly SessionCommand[];
  total: number;
  /** What goes full screen. */
  page: RefObject<HTMLElement | null>;
}

function PlayerView({ cast, commands, total, page }: PlayerViewProps) {
  const { t } = useTranslation('session-audit');
  const styles = useStyles();
  const player = useRef<Player | null>(null);
  const [zoom, setZoom] = useState<Zoom>('fit');
  const [scale, setScale] = useState(1);
  const [ready, setReady] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [speed, setSpeed] = useState<number>(1);
  const [skipIdle, setSkipIdle] = useState(false);
  const [indexing, setIndexing] = useState<number | null>(0);
  const abort = useRef(new AbortController());
  useEffect(() => () => abort.current.abort(), []);

  const onReady = ({ term }: XtermHandle) => {
    // The player sets the recording's size (header, `r` events, seeks); FittedTerminal scales the font to the window.
    const p = new Player(cast, term);
    player.current = p;
    void p.start().then(() => setReady(true));
    void buildKeyframes(cast, createShadowTerminal, {
      signal: abort.current.signal,
      onProgress: (done) => setIndexing(done >= 1 ? null : Math.floor(done * 100)),
    }).then(
      (frames) => {
        p.setKeyframes(frames);
        setIndexing(null);
      },
      () => setIndexing(null), // without keyframes seeks replay from the start: slower, still right
    );
  };

  // Playing: advance by real time; stop at the end.
  useEffect(() => {
    const p = player.current;
    if (!playing || !p) return undefined;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      p.step(now - last, { speed, ...(skipIdle ? { maxIdle: MAX_IDLE_SECONDS } : {}) });
      last = now;
      setPosition(p.position);
      if (p.ended) setPlaying(false);
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [playing, speed, skipIdle]);

  const seek = useCallback((seconds: number) => {
    const p = player.current;
    if (!p) return;
    void p.seek(seconds);
    setPosition(p.position);
  }, []);

  const toggle = useCallback(() => {
    const p = player.current;
    if (!p) return;
    if (!playing && p.ended) seek(0);
    setPlaying(!playing);
  }, [playing, seek]);

  // Space plays/pauses, ← → step 5 s; not while typing in the command search or moving the slider itself.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA' || target.isContentEditable)) return;
      const p = player.current;
      if (!p) return;
      if (event.key === ' ') {
        if (target?.tagName === 'BUTTON') return; // the focused button takes its own space
        event.preventDefault();
        toggle();
      } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        event.preventDefault();
        seek(p.position + (event.key === 'ArrowLeft' ? -KEY_STEP_SECONDS : KEY_STEP_SECONDS));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle, seek]);

  const current = useMemo(() => currentCommand(commands, position), [commands, position]);
  const onJump = useCallback((c: SessionCommand) => seek(c.offsetMs / 1000), [seek]);
  const clock = t('playback.clock', { position: formatClock(position), duration: formatClock(cast.duration) });

  return (
    <>
      <div className={styles.body}>
        <div className={styles.screen}>
          <FittedTerminal label={t('playback.terminal')} zoom={zoom} onScale={setScale} onReady={onReady} options={{ scrollback: 1000 }} />
          {cast.events.length === 0 ? <Text role="status">{t('playback.empty')}</Text> : null}
          {cast.skipped > 0 ? <Text size={200}>{t('playback.skipped', { count: cast.skipped })}</Text> : null}
        </div>
        <aside className={styles.side}>
          <CommandIndex commands={commands} total={total} current={current} onJump={onJump} />
        </aside>
      </div>
      <div className={styles.controls}>
        <Button
          appearance="primary"
          icon={playing ? <PauseRegular /> : <PlayRegular />}
          aria-label={playing ? t('playback.pause') : t('playback.play')}
          disabled={!ready}
          onClick={toggle}
        />
        <Slider
          className={styles.slider}
          aria-label={t('playback.position')}
          aria-valuetext={clock}
          min={0}
          // A range input snaps to its steps: the last one rounds up, so End reaches the recording's last output.
          max={Math.max(Math.ceil(cast.duration * 10) / 10, 0.1)}
          step={0.1}
          value={Math.min(position, cast.duration)}
          disabled={!ready}
          onChange={(_, d) => seek(d.value)}
        />
        <Text className={styles.clock}>{clock}</Text>
        <Field label={t('playback.speed')} orientation="horizontal">
          <Select value={String(speed)} onChange={(_, d) => setSpeed(Number(d.value))}>
            {SPEEDS.map((s) => (
              <option key={s} value={String(s)}>{`${s}×`}</option>
            ))}
          </Select>
        </Field>
        <Switch label={t('playback.skipIdle')} checked={skipIdle} onChange={(_, d) => setSkipIdle(d.checked)} />
        {indexing !== null ? (
          <Field label={t('playback.indexing', { percent: indexing })}>
            <ProgressBar value={indexing / 100} />
          </Field>
        ) : null}
        <Text size={200}>{t('playback.keys')}</Text>
        <ViewControls zoom={zoom} scale={scale} onZoom={setZoom} fullscreen={page} />
      </div>
    </>
  );
}
