import { makeStyles, mergeClasses, Spinner, tokens } from '@fluentui/react-components';
import type { FitAddon } from '@xterm/addon-fit';
import type { SearchAddon } from '@xterm/addon-search';
import type { ITerminalOptions, Terminal } from '@xterm/xterm';
import { useEffect, useRef, useState } from 'react';

/** What a page gets once its terminal is open. */
export interface XtermHandle {
  term: Terminal;
  /** Fits the terminal to its box now (it also refits on every size change of the box). */
  fit: () => void;
  /** Find in the scrollback (`findNext`, `findPrevious`, `clearDecorations`). */
  search: SearchAddon;
}

export interface XtermViewProps {
  /** The terminal's accessible name (xterm's own textarea and the region around it). */
  label: string;
  /** Called once, when xterm is loaded and open in the box; the terminal is disposed on unmount. */
  onReady: (handle: XtermHandle) => void;
  /** Keystrokes are not taken (monitor, playback). */
  readOnly?: boolean;
  /** xterm options beyond ours (font size, scrollback…). */
  options?: ITerminalOptions;
  /**
   * `false`: the terminal keeps the columns and rows the page gives it (`term.resize`), whatever the box's size: a
   * viewer of another terminal (monitor, playback) shows that terminal's size and scales its font instead. Default:
   * the terminal is fitted to its box.
   */
  fit?: boolean;
  className?: string;
}

/** The terminal colours of 1.3.9's pages (screens §1.15): light text on #1b1b1b. */
export const TERMINAL_BACKGROUND = '#1b1b1b';

const useStyles = makeStyles({
  box: { position: 'relative', width: '100%', height: '100%', minHeight: 0, backgroundColor: TERMINAL_BACKGROUND, overflow: 'hidden' },
  loading: { position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' },
  inner: { width: '100%', height: '100%', paddingLeft: tokens.spacingHorizontalXS },
});

// xterm and its stylesheet travel in their own chunk, fetched by the pages that show a terminal, never by the
// login screen or the layouts.
// Links in the output open in a new browser tab (web-links); search finds text in the scrollback.
const loadXterm = () =>
  Promise.all([
    import('@xterm/xterm'),
    import('@xterm/addon-fit'),
    import('@xterm/addon-web-links'),
    import('@xterm/addon-search'),
    import('@xterm/xterm/css/xterm.css'),
  ]);

/**
 * An xterm.js 6 terminal filling its box (DOM renderer), refitted whenever the box changes size. The page owns what
 * is written to it and what keystrokes do (`onReady` gives it the Terminal).
 */
export function XtermView({ label, onReady, readOnly = false, options, fit = true, className }: XtermViewProps) {
  const styles = useStyles();
  const host = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState<Error | null>(null);
  // The first props win: a terminal is not re-created when a parent re-renders.
  const first = useRef({ onReady, readOnly, options, label, fit });
  if (failed) throw failed; // the page's error boundary shows it

  useEffect(() => {
    let disposed = false;
    let cleanup = () => {};
    loadXterm().then(
      ([{ Terminal }, { FitAddon }, { WebLinksAddon }, { SearchAddon }]) => {
        const el = host.current;
        if (disposed || !el) return;
        const { onReady: ready0, readOnly: ro, options: opts, label: name, fit: fits } = first.current;
        const term = new Terminal({
          fontSize: 15,
          fontFamily: 'Menlo, Monaco, Consolas, "Courier New", monospace',
          cursorBlink: !ro,
          disableStdin: ro,
          scrollback: 5000,
          theme: { background: TERMINAL_BACKGROUND },
          ...opts,
        });
        const fitAddon: FitAddon = new FitAddon();
        term.loadAddon(fitAddon);
        term.loadAddon(new WebLinksAddon());
        const search: SearchAddon = new SearchAddon();
        term.loadAddon(search);
        term.open(el);
        term.textarea?.setAttribute('aria-label', name);
        const refit = () => {
          // A hidden or zero-size box (a background tab) has no size to fit to.
          if (fits && el.clientWidth > 0 && el.clientHeight > 0) fitAddon.fit();
        };
        refit();
        let frame = 0;
        const observer = new ResizeObserver(() => {
          cancelAnimationFrame(frame);
          frame = requestAnimationFrame(refit);
        });
        observer.observe(el);
        cleanup = () => {
          cancelAnimationFrame(frame);
          observer.disconnect();
          term.dispose();
        };
        setReady(true);
        ready0({ term, fit: refit, search });
      },
      (err: unknown) => {
        if (!disposed) setFailed(err instanceof Error ? err : new Error(String(err)));
      },
    );
    return () => {
      disposed = true;
      cleanup();
    };
  }, []);

  return (
    <section className={mergeClasses(styles.box, className)} aria-label={label} aria-busy={!ready}>
      {!ready && (
        <div className={styles.loading}>
          <Spinner size="small" />
        </div>
      )}
      <div ref={host} className={styles.inner} />
    </section>
  );
}
