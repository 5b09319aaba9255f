import {
  ApiError,
  decodeFrame,
  encodeData,
  encodePause,
  encodePing,
  encodeResize,
  encodeResume,
  FRAME,
  flowControlled,
  socketUrl,
  useApi,
  useBus,
  useTranslation,
  type XtermHandle,
  XtermView,
} from '@/core';
import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { allowed, type SessionFlags, sessionApi, sessionProtocol, type TermProtocol } from '../api';

/** Where a tab's session is. */
export type TabStatus = 'creating' | 'connecting' | 'connected' | 'closed' | 'failed';

/** What the page learns of a tab: its status, its session (once created) and why it ended. */
export interface TabInfo {
  status: TabStatus;
  flags: SessionFlags | null;
  reason: string;
}

/** What the page may do with a tab's terminal (snippets, search, focus). */
export interface TabControls {
  /** Types text into the session as if keyed (no Enter added). */
  type: (text: string) => void;
  focus: () => void;
  find: (text: string, backwards?: boolean) => boolean;
  clearFind: () => void;
}

export interface TermTabProps {
  assetId: string;
  assetName: string;
  /** What the tab was opened for: its socket is `/sessions/:id/<protocol>` unless the server's answer names another. */
  protocol: TermProtocol;
  active: boolean;
  onInfo: (info: TabInfo) => void;
  /** The terminal's controls, once it is open (null when it goes). */
  controls: (controls: TabControls | null) => void;
  onReconnect: () => void;
  onClose: () => void;
  /** Ctrl+Shift+F in the terminal. */
  onSearchKey: () => void;
}

/** Keep-alive period of 1.3.9's console: a `4` every 10 s. */
export const PING_MS = 10_000;
/** A resize settles before it is sent: dragging a window edge fires many. */
export const RESIZE_DEBOUNCE_MS = 250;

const useStyles = makeStyles({
  root: { position: 'relative', display: 'flex', flexDirection: 'column', width: '100%', height: '100%', minHeight: 0 },
  hidden: { display: 'none' },
  term: { flexGrow: 1, minHeight: 0 },
  bar: { position: 'absolute', top: tokens.spacingVerticalM, left: '50%', transform: 'translateX(-50%)', zIndex: 10, maxWidth: '90%' },
  failed: { padding: tokens.spacingHorizontalXXL },
});

const RED = (text: string) => `\x1b[31m${text}\x1b[0m`;

/**
 * One session as a tab (SSH or Telnet: the same frames on the protocol's socket): creates it (`POST /sessions?mode=native`), opens its terminal socket with the terminal's size,
 * relays keys, output (with write-callback flow control), resizes and pings, and shows why it ended with an offer to
 * reconnect. It stays mounted (socket and xterm alive) while another tab is shown.
 */
export function TermTab({ assetId, assetName, protocol, active, onInfo, controls, onReconnect, onClose, onSearchKey }: TermTabProps) {
  const { t } = useTranslation('terminal');
  const styles = useStyles();
  const api = useApi();
  const bus = useBus();
  const [flags, setFlags] = useState<SessionFlags | null>(null);
  const [handle, setHandle] = useState<XtermHandle | null>(null);
  const [info, setInfo] = useState<TabInfo>({ status: 'creating', flags: null, reason: '' });
  const box = useRef<HTMLDivElement>(null);
  // Latest callbacks without re-running the effects that hold the socket.
  const latest = useRef({ onInfo, controls, onSearchKey, t });
  latest.current = { onInfo, controls, onSearchKey, t };

  const report = useCallback((next: Partial<TabInfo>) => setInfo((before) => ({ ...before, ...next })), []);
  useEffect(() => latest.current.onInfo(info), [info]);

  // 1. The session.
  useEffect(() => {
    let gone = false;
    sessionApi(api)
      .create(assetId)
      .then(
        (created) => {
          if (gone) return;
          setFlags(created);
          report({ status: 'connecting', flags: created });
        },
        (error: unknown) => {
          if (gone) return;
          report({ status: 'failed', reason: error instanceof ApiError || error instanceof Error ? error.message : String(error) });
        },
      );
    return () => {
      gone = true;
    };
  }, [api, assetId, report]); // one session per mount: a reconnect remounts the tab

  // 2. The socket, once both the session and the terminal exist.
  useEffect(() => {
    if (!flags || !handle) return;
    const { term, search } = handle;
    const sessions = sessionApi(api);
    const say = latest.current.t;
    term.write(`${say('term.trying')}\r\n`);
    const path = `/sessions/${encodeURIComponent(flags.id)}/${sessionProtocol(flags, protocol)}`;
    const socket = new WebSocket(socketUrl(api, path, { cols: term.cols, rows: term.rows }));
    const send = (frame: string) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(frame);
    };
    const writer = flowControlled(term, { pause: () => send(encodePause()), resume: () => send(encodeResume()) });
    let ping: ReturnType<typeof setInterval> | undefined;
    let resize: ReturnType<typeof setTimeout> | undefined;
    let reason = '';

    socket.onopen = () => {
      ping = setInterval(() => send(encodePing()), PING_MS);
    };
    socket.onmessage = (event: MessageEvent) => {
      if (typeof event.data !== 'string') return;
      const frame = decodeFrame(event.data);
      switch (frame.type) {
        case FRAME.data:
          writer.write(frame.content);
          break;
        case FRAME.connected:
          term.reset(); // the "trying to connect" line goes
          report({ status: 'connected' });
          sessions.connect(flags.id).catch(() => undefined); // the client toasts a refusal
          break;
        case FRAME.closed:
          reason = frame.content;
          term.write(`\r\n${RED(frame.content)}\r\n`);
          socket.close();
          break;
        default:
          break; // pong, and types a newer server may add
      }
    };
    socket.onclose = () => {
      clearInterval(ping);
      term.write(`\r\n${say('term.closedLine')}\r\n`);
      report({ status: 'closed', reason: reason || say('term.closedReason') });
    };

    const keys = term.onData((data) => send(encodeData(data)));
    const binary = term.onBinary((data) => send(encodeData(data)));
    const resized = term.onResize(({ cols, rows }) => {
      clearTimeout(resize);
      resize = setTimeout(() => send(encodeResize(cols, rows)), RESIZE_DEBOUNCE_MS);
    });
    /**
     * Ctrl+V pastes the clipboard, as in the terminals of Windows and most Linux desktops (xterm would send ^V). The
     * browser lets a page read the clipboard only in a secure context (HTTPS or localhost) and with the user's consent;
     * without that, a hint says how the browser pastes by itself: Ctrl+Shift+V, or Paste in the right-click menu.
     */
    const pasteClipboard = () => {
      const hint = () => bus.emit('notify', { intent: 'info', message: say('term.pasteHint') });
      const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
      if (typeof clipboard?.readText !== 'function') {
        hint();
        return;
      }
      clipboard.readText().then((text) => {
        if (text) term.paste(text); // bracketed when the program asked for it, line ends as Enter
      }, hint);
    };
    term.attachCustomKeyEventHandler((event) => {
      if (event.type !== 'keydown') return true;
      // The letter typed; on a non-Latin layout (Cyrillic…), the key's place on a Latin one.
      const letter = /^[a-z]$/i.test(event.key) ? event.key.toLowerCase() : (event.code ?? '').replace(/^Key/, '').toLowerCase();
      if (event.ctrlKey && event.shiftKey && letter === 'f') {
        event.preventDefault();
        latest.current.onSearchKey();
        return false;
      }
      // Only where the strategy allows paste; otherwise xterm's own ^V goes to the host, as it would without us.
      if (event.ctrlKey && !event.shiftKey && !event.altKey && !event.metaKey && letter === 'v' && allowed(flags.paste)) {
        event.preventDefault();
        pasteClipboard();
        return false;
      }
      return true;
    });
    latest.current.controls({
      type: (text) => send(encodeData(text)),
      focus: () => term.focus(),
      find: (text, backwards = false) => (backwards ? search.findPrevious(text) : search.findNext(text)),
      clearFind: () => search.clearDecorations(),
    });

    return () => {
      latest.current.controls(null);
      clearInterval(ping);
      clearTimeout(resize);
      keys.dispose();
      binary.dispose();
      resized.dispose();
      socket.onclose = null;
      socket.onmessage = null;
      socket.close();
    };
  }, [api, bus, flags, handle, protocol, report]); // the socket lives as long as this session and its terminal

  // 3. Copy and paste as the strategy says: refused in the capture phase, before xterm's own handlers see them.
  useEffect(() => {
    const el = box.current;
    if (!el || !flags) return;
    const guard = (flag: string, message: string) => (event: Event) => {
      if (allowed(flag)) return;
      event.preventDefault();
      event.stopPropagation();
      bus.emit('notify', { intent: 'warning', message });
    };
    const copy = guard(flags.copy, t('term.copyForbidden'));
    const paste = guard(flags.paste, t('term.pasteForbidden'));
    el.addEventListener('copy', copy, true);
    el.addEventListener('cut', copy, true);
    el.addEventListener('paste', paste, true);
    return () => {
      el.removeEventListener('copy', copy, true);
      el.removeEventListener('cut', copy, true);
      el.removeEventListener('paste', paste, true);
    };
  }, [flags, bus, t]);

  // Shown again: take the keyboard (the refit happens by itself when the box gets its size back).
  useEffect(() => {
    if (active && handle) handle.term.focus();
  }, [active, handle]);

  return (
    <div ref={box as RefObject<HTMLDivElement>} className={mergeClasses(styles.root, !active && styles.hidden)} role="tabpanel" aria-label={assetName}>
      {info.status === 'failed' ? (
        <div className={styles.failed}>
          <MessageBar intent="error" layout="multiline">
            <MessageBarBody>
              <MessageBarTitle>{t('term.createFailed')}</MessageBarTitle>
              {info.reason}
            </MessageBarBody>
            <MessageBarActions>
              <Button onClick={onReconnect}>{t('term.retry')}</Button>
              <Button onClick={onClose}>{t('term.closeTab')}</Button>
            </MessageBarActions>
          </MessageBar>
        </div>
      ) : (
        <>
          {info.status === 'closed' ? (
            <MessageBar intent="warning" layout="multiline" className={styles.bar}>
              <MessageBarBody>
                <MessageBarTitle>{t('term.closedTitle')}</MessageBarTitle>
                {info.reason}
              </MessageBarBody>
              <MessageBarActions>
                <Button appearance="primary" onClick={onReconnect}>
                  {t('term.reconnect')}
                </Button>
                <Button onClick={onClose}>{t('term.closeTab')}</Button>
              </MessageBarActions>
            </MessageBar>
          ) : null}
          <XtermView className={styles.term} label={t('term.label', { name: assetName })} onReady={setHandle} />
        </>
      )}
    </div>
  );
}
