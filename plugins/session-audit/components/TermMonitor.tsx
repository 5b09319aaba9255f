import { decodeFrame, FRAME, useApi, useTranslation, socketUrl, XtermView, type XtermHandle } from '@/core';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSessionInfo } from './SessionTitle';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', height: '100vh', backgroundColor: tokens.colorNeutralBackgroundInverted },
  bar: { display: 'flex', columnGap: tokens.spacingHorizontalL, padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`, color: tokens.colorNeutralForegroundInverted },
  ended: { color: tokens.colorPaletteRedForeground3, fontWeight: tokens.fontWeightSemibold },
  term: { flexGrow: 1, minHeight: 0 },
});

type MonitorState = { kind: 'waiting' } | { kind: 'live' } | { kind: 'ended'; reason: string } | { kind: 'lost' };

/**
 * 会话监控 (screens §5.4): a read-only mirror of a live SSH session. The server sends the current screen first, then
 * every output frame (`2…`), and `0<reason>` when the session ends; keystrokes are not taken.
 */
export function TermMonitor() {
  const { t } = useTranslation('session-audit');
  const styles = useStyles();
  const api = useApi();
  const [params] = useSearchParams();
  const sessionId = params.get('sessionId') ?? '';
  const info = useSessionInfo(sessionId);
  const [state, setState] = useState<MonitorState>({ kind: 'waiting' });
  const term = useRef<XtermHandle['term'] | null>(null);
  // Output that arrives before xterm has loaded waits here.
  const pending = useRef<string[]>([]);

  useEffect(() => {
    if (!sessionId) return undefined;
    const socket = new WebSocket(socketUrl(api, `/sessions/${encodeURIComponent(sessionId)}/ssh-monitor`));
    let ended = false;
    socket.onmessage = (event: MessageEvent) => {
      if (typeof event.data !== 'string') return;
      const frame = decodeFrame(event.data);
      if (frame.type === FRAME.data) {
        setState((s) => (s.kind === 'waiting' ? { kind: 'live' } : s));
        if (term.current) term.current.write(frame.content);
        else pending.current.push(frame.content);
      } else if (frame.type === FRAME.closed) {
        ended = true;
        setState({ kind: 'ended', reason: frame.content });
        socket.close();
      }
    };
    socket.onclose = () => {
      if (!ended) setState((s) => (s.kind === 'ended' ? s : { kind: 'lost' }));
    };
    return () => {
      ended = true;
      socket.onmessage = null;
      socket.onclose = null;
      socket.close();
    };
  }, [api, sessionId]);

  const onReady = ({ term: ready }: XtermHandle) => {
    term.current = ready;
    for (const chunk of pending.current) ready.write(chunk);
    pending.current = [];
  };

  let status: string | null = null;
  if (!sessionId) status = t('monitor.noSession');
  else if (state.kind === 'waiting') status = t('monitor.waiting');
  else if (state.kind === 'ended') status = t('monitor.ended', { reason: state.reason });
  else if (state.kind === 'lost') status = t('monitor.lost');

  return (
    <main className={styles.page}>
      <div className={styles.bar}>
        {info ? (
          <Text>
            {t('monitor.watching', { user: info.creatorName, asset: info.assetName, username: info.username, ip: info.ip, port: info.port })}
          </Text>
        ) : null}
        <Text role={state.kind === 'ended' || state.kind === 'lost' ? 'alert' : 'status'} className={state.kind === 'waiting' ? undefined : styles.ended}>
          {status}
        </Text>
      </div>
      <XtermView className={styles.term} label={t('monitor.terminal')} readOnly onReady={onReady} />
    </main>
  );
}
