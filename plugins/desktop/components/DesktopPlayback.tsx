import { useApi, usePageTitle, useTranslation } from '@/core';
import { Button, Dropdown, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, Option, Slider, Spinner, Text } from '@fluentui/react-components';
import { ArrowResetRegular } from '@fluentui/react-icons/svg/arrow-reset';
import { PauseRegular } from '@fluentui/react-icons/svg/pause';
import { PlayRegular } from '@fluentui/react-icons/svg/play';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { desktopApi } from '../api';
import { DesktopPlayer, type PlayerState, SPEEDS, type Speed } from './player';
import { parseRecording, type Recording, RecordingFormatError } from './recording';
import { useFrameStyles } from './styles';
import { useViewerFactory } from './useViewer';

/** `m:ss` (or `h:mm:ss`) of a time in milliseconds. */
export function clockText(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** How often the position shown moves while playing. */
const TICK_MS = 250;

/**
 * `/guacd-playback?sessionId=` (历史会话 → 回放 of a desktop session, VNC or RDP: one format; the `protocol` the list
 * adds is not needed): fetches `GET /sessions/:id/recording`, plays it in a view-only noVNC with play / pause, 1×–8×,
 * and a seek slider (by the last keyframe).
 */
export function DesktopPlayback() {
  const { t } = useTranslation('desktop');
  const styles = useFrameStyles();
  const api = useApi();
  const [params] = useSearchParams();
  const sessionId = params.get('sessionId') ?? '';
  usePageTitle(t('playback.title'));
  const { create, failed: viewerFailed } = useViewerFactory();
  const [recording, setRecording] = useState<Recording | null>(null);
  const [error, setError] = useState('');
  const [state, setState] = useState<PlayerState>({ positionMs: 0, playing: false, ended: false, ready: false });
  const [speed, setSpeed] = useState<Speed>(1);
  const [player, setPlayer] = useState<DesktopPlayer | null>(null);
  /** Seeks asked and not yet on the screen (the slider moves faster than a keyframe inflates). */
  const [seeking, setSeeking] = useState(0);
  const screen = useRef<HTMLDivElement>(null);

  const load = useCallback(() => {
    if (!sessionId) return undefined;
    const abort = new AbortController();
    setError('');
    setRecording(null);
    desktopApi(api)
      .recording(sessionId, abort.signal)
      .then(
        (bytes) => setRecording(parseRecording(bytes)),
        (failure: unknown) => {
          if (!abort.signal.aborted) setError(failure instanceof Error ? failure.message : String(failure));
        },
      )
      .catch((failure: unknown) => {
        setError(failure instanceof RecordingFormatError ? t('playback.notDesktop', { reason: failure.message }) : String(failure));
      });
    return () => abort.abort();
  }, [api, sessionId, t]);
  useEffect(() => load(), [load]);

  useEffect(() => {
    const box = screen.current;
    if (!recording || !create || !box) return;
    const made = new DesktopPlayer({ recording, create, target: box, onState: setState });
    setPlayer(made);
    made.play();
    return () => {
      setPlayer(null);
      made.dispose();
    };
  }, [recording, create]);

  // The time shown follows the clock while playing.
  useEffect(() => {
    if (!player || !state.playing) return;
    const tick = setInterval(() => setState(player.state()), TICK_MS);
    return () => clearInterval(tick);
  }, [player, state.playing]);

  if (!sessionId) {
    return (
      <div className={styles.message}>
        <MessageBar intent="error">
          <MessageBarBody>{t('playback.missing')}</MessageBarBody>
        </MessageBar>
      </div>
    );
  }

  const duration = recording?.durationMs ?? 0;
  const failure = error || viewerFailed;
  // The screen is busy (aria-busy) until its first picture shows and while a seek is under way: assistive technology
  // waits for it, and so can a test or a benchmark.
  const busy = !failure && (!state.ready || seeking > 0);

  return (
    <div className={styles.page}>
      <div className={styles.bar} role="toolbar" aria-label={t('playback.title')}>
        <Text className={styles.title}>{recording?.header.name || t('playback.title')}</Text>
        {state.playing ? (
          <Button appearance="subtle" icon={<PauseRegular />} disabled={!player} onClick={() => player?.pause()}>
            {t('playback.pause')}
          </Button>
        ) : (
          <Button appearance="subtle" icon={state.ended ? <ArrowResetRegular /> : <PlayRegular />} disabled={!player} onClick={() => player?.play()}>
            {state.ended ? t('playback.restart') : t('playback.play')}
          </Button>
        )}
        <Slider
          className={styles.grow}
          aria-label={t('playback.seek')}
          aria-valuetext={clockText(state.positionMs)}
          min={0}
          max={Math.max(1, duration)}
          step={100}
          value={Math.min(state.positionMs, Math.max(1, duration))}
          disabled={!player}
          onChange={(_, d) => {
            if (!player) return;
            setState({ ...player.state(), positionMs: d.value });
            setSeeking((n) => n + 1);
            // The player's seek resolves once the viewer has been handed the screen of that moment.
            void player.seek(d.value).finally(() => setSeeking((n) => n - 1));
          }}
        />
        <Text aria-live="off">{t('playback.time', { at: clockText(state.positionMs), total: clockText(duration) })}</Text>
        <Dropdown
          aria-label={t('playback.speed')}
          value={`${speed}×`}
          selectedOptions={[String(speed)]}
          style={{ minWidth: '80px' }}
          onOptionSelect={(_, d) => {
            const next = Number(d.optionValue) as Speed;
            setSpeed(next);
            player?.setSpeed(next);
          }}
        >
          {SPEEDS.map((s) => (
            <Option key={s} value={String(s)}>{`${s}×`}</Option>
          ))}
        </Dropdown>
      </div>
      <div className={styles.body}>
        <div className={styles.screen}>
          {failure ? (
            <div className={styles.message}>
              <MessageBar intent="error" layout="multiline">
                <MessageBarBody>
                  <MessageBarTitle>{t('playback.loadFailed')}</MessageBarTitle>
                  {failure}
                </MessageBarBody>
                <MessageBarActions>
                  <Button onClick={() => load()}>{t('playback.retry')}</Button>
                </MessageBarActions>
              </MessageBar>
            </div>
          ) : null}
          {recording?.truncated ? (
            <MessageBar intent="info" className={styles.notice}>
              <MessageBarBody>{t('playback.truncated')}</MessageBarBody>
            </MessageBar>
          ) : null}
          {!recording && !failure ? <Spinner className={styles.message} label={t('playback.loading')} /> : null}
          <div ref={screen as RefObject<HTMLDivElement>} role="img" aria-label={t('playback.label', { id: sessionId })} aria-busy={busy} className={styles.fill} />
        </div>
      </div>
    </div>
  );
}
