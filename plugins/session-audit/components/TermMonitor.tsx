import { decodeFrame, FRAME, useApi, useTranslation, socketUrl, type XtermHandle } from '@/core';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { monitorPath } from './api';
import { useSessionRow } from './SessionTitle';
import { FittedTerminal, type Zoom } from './viewer/FittedTerminal';
import { ViewControls } from './viewer/ViewControls';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', height: '100vh', backgroundColor: tokens.colorNeutralBackgroundInverted },
  bar: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalL,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`,
    color: tokens.colorNeutralForegroundInverted,
  },
  ended: { color: tokens.colorPaletteRedForeground3, fontWeight: tokens.fontWeightSemibold },
  controls: { marginLeft: 'auto' },
  onDark: { color: tokens.colorNeutralForegroundInverted },
});

/** A `3` frame from the server: the watched terminal's size (base64 of `{"cols":…,"rows":…}`); undefined if malformed. */
export function parseSizeFrame(content: string): { cols: number; rows: number } | undefined {
  try {
    const { cols, rows } = JSON.parse(atob(content)) as { cols?: unknown; rows?: unknown };
    if (typeof cols !== 'number' || typeof rows !== 'number' || !Number.isInteger(cols) || !Number.isInteger(rows)) return undefined;
    return cols > 0 && rows > 0 ? { cols, rows } : undefined;
  } catch {
    return undefined;
  }
}

type MonitorState = { kind: 'waiting' } | { kind: 'live' } | { kind: 'ended'; reason: string } | { kind: 'lost' };

/**
 * 会话监控 (screens §5.4): a read-only mirror of a live SSH or Telnet session. The server sends the watched terminal's
 * size (`3…`, again at every resize), the current screen, then every output frame (`2…`), and `0<reason>` when the
 * session ends; keystrokes are not taken. The mirror has the user's columns and rows (nothing wraps) and is scaled to
 * the window; before the stream tells the size, the session's row does.
 *
 * The socket is the session's protocol's (`/sessions/:id/<protocol>-monitor`): the session row's word when the viewer
 * may read it (the monitor key grants that; the page waits for the answer), else the `protocol` parameter the online
 * list adds, else SSH (the links of before Telnet).
 */
export function TermMonitor() {
  const { t } = useTranslation('session-audit');
  const styles = useStyles();
  const api = useApi();
  const [params] = useSearchParams();
  const sessionId = params.get('sessionId') ?? '';
  const { info, settled } = useSessionRow(sessionId);
  const path = settled ? monitorPath(sessionId, info?.protocol ?? params.get('protocol')) : null;
  const [state, setState] = useState<MonitorState>({ kind: 'waiting' });
  const term = useRef<XtermHandle['term'] | null>(null);
  // Output that arrives before xterm has loaded waits here.
  const pending = useRef<string[]>([]);
  // The watched terminal's size: the stream's word wins over the session row's (older).
  const size = useRef<{ cols: number; rows: number; from: 'row' | 'stream' } | null>(null);
  const page = useRef<HTMLElement>(null);
  const [zoom, setZoom] = useState<Zoom>('fit');
  const [scale, setScale] = useState(1);

  const applySize = useCallback((cols: number, rows: number, from: 'row' | 'stream') => {
    if (from === 'row' && size.current?.from === 'stream') return;
    size.current = { cols, rows, from };
    const t = term.current;
    // In order with the output: what was written before the resize is drawn at the old size.
    if (t) t.write('', () => t.resize(cols, rows));
  }, []);
  const rowCols = info?.width ?? 0;
  const rowRows = info?.height ?? 0;
  useEffect(() => {
    if (rowCols > 0 && rowRows > 0) applySize(rowCols, rowRows, 'row');
  }, [rowCols, rowRows, applySize]);

  useEffect(() => {
    if (!sessionId || !path) return undefined;
    const socket = new WebSocket(socketUrl(api, path));
    let ended = false;
    socket.onmessage = (event: MessageEvent) => {
      if (typeof event.data !== 'string') return;
      const frame = decodeFrame(event.data);
      if (frame.type === FRAME.resize) {
        const told = parseSizeFrame(frame.content);
        if (told) applySize(told.cols, told.rows, 'stream');
      } else if (frame.type === FRAME.data) {
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
  }, [api, sessionId, path, applySize]);

  const onReady = ({ term: ready }: XtermHandle) => {
    term.current = ready;
    if (size.current) ready.resize(size.current.cols, size.current.rows);
    for (const chunk of pending.current) ready.write(chunk);
    pending.current = [];
  };

  let status: string | null = null;
  if (!sessionId) status = t('monitor.noSession');
  else if (state.kind === 'waiting') status = t('monitor.waiting');
  else if (state.kind === 'ended') status = t('monitor.ended', { reason: state.reason });
  else if (state.kind === 'lost') status = t('monitor.lost');

  return (
    <main ref={page} className={styles.page}>
      <div className={styles.bar}>
        {info ? (
          <Text>
            {t('monitor.watching', { user: info.creatorName, asset: info.assetName, username: info.username, ip: info.ip, port: info.port })}
          </Text>
        ) : null}
        <Text role={state.kind === 'ended' || state.kind === 'lost' ? 'alert' : 'status'} className={state.kind === 'waiting' ? undefined : styles.ended}>
          {status}
        </Text>
        <div className={styles.controls}>
          <ViewControls zoom={zoom} scale={scale} onZoom={setZoom} fullscreen={page} buttonClassName={styles.onDark} />
        </div>
      </div>
      <FittedTerminal label={t('monitor.terminal')} zoom={zoom} onScale={setScale} onReady={onReady} />
    </main>
  );
}
