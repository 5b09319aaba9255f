import { XtermView, type XtermHandle, type XtermViewProps } from '@/core';
import { makeStyles, mergeClasses } from '@fluentui/react-components';
import { useCallback, useEffect, useRef } from 'react';
import { fitScale, MAX_ZOOM, MIN_ZOOM } from './scale';

/** The viewer's zoom: fitted to the window (following its size), or a fixed scale of the terminal's own font. */
export type Zoom = 'fit' | number;

/** The font size a scale of 1 stands for (XtermView's own). */
export const BASE_FONT_SIZE = 15;

/**
 * Fitting never goes below this font size: smaller text is a picture, not something an auditor reads (issue 27: a
 * 200-column session fitted into 1024 px came out at 8 px). Past it the window scrolls instead. 200 columns of
 * Debian's monospace at 12 px are ≈ 1445 px wide.
 */
export const READABLE_FONT_SIZE = 12;

const useStyles = makeStyles({
  // margin: auto centres the terminal while it is smaller than the window and lets it scroll from its edge when larger.
  // Scrolls when the terminal is larger than the window: zoomed in, or fitted at the readable floor.
  viewport: { flexGrow: 1, minHeight: 0, minWidth: 0, display: 'flex', overflow: 'auto' },
  // Until the first layout sizes it, the stage fills the window (xterm measures its font in a laid-out box).
  stage: { margin: 'auto', flexShrink: 0, width: '100%', height: '100%' },
});

export interface FittedTerminalProps {
  label: string;
  zoom: Zoom;
  /** After each layout: the scale shown (the font size over BASE_FONT_SIZE). */
  onScale?: (scale: number) => void;
  /** As XtermView's: the page writes, and sets the terminal's columns and rows with `term.resize`. */
  onReady: (handle: XtermHandle) => void;
  options?: XtermViewProps['options'];
  className?: string;
}

/**
 * A read-only view of another terminal (a watched session, a recording): the terminal keeps the columns and rows the
 * page gives it, so nothing wraps, and its font is scaled to show all of it as large as the window allows (the largest
 * scale at which both its width and its height fit) but never below READABLE_FONT_SIZE, or to a chosen zoom (the
 * window scrolls where the terminal is larger). The font size is
 * what scales, not a CSS transform, so xterm's selection still finds the cells under the mouse.
 */
export function FittedTerminal({ label, zoom, onScale, onReady, options, className }: FittedTerminalProps) {
  const styles = useStyles();
  const viewport = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const term = useRef<XtermHandle['term'] | null>(null);
  const zoomNow = useRef(zoom);
  const scaleTo = useRef(onScale);
  scaleTo.current = onScale;

  const layout = useCallback(() => {
    const t = term.current;
    const view = viewport.current;
    const box = stage.current;
    const screen = t?.element?.querySelector<HTMLElement>('.xterm-screen');
    if (!t || !view || !box || !screen) return;
    // XtermView keeps a little room left of the text: the stage holds it too.
    const host = t.element?.parentElement;
    const pad = host ? Number.parseFloat(getComputedStyle(host).paddingLeft) || 0 : 0;
    const measure = () => ({ width: screen.offsetWidth, height: screen.offsetHeight });
    const font = () => t.options.fontSize ?? BASE_FONT_SIZE;
    const setFont = (size: number) => {
      const bounded = Math.min(MAX_ZOOM * BASE_FONT_SIZE, Math.max(MIN_ZOOM * BASE_FONT_SIZE, size));
      if (Math.abs(bounded - font()) > 0.01) t.options.fontSize = bounded;
    };
    const wanted = zoomNow.current;
    if (wanted === 'fit') {
      const room = { width: view.clientWidth - pad, height: view.clientHeight };
      // Cell widths follow the font size, row heights are whole device pixels: a pass or two settles it, never larger
      // than the room.
      for (let pass = 0; pass < 4; pass++) {
        const scale = fitScale(measure(), room);
        if (scale === 0 || (scale >= 1 && scale < 1.01)) break;
        const next = Math.floor(font() * scale * 100) / 100;
        if (Math.abs(next - font()) <= 0.01) break;
        setFont(next);
      }
      if (font() < READABLE_FONT_SIZE) setFont(READABLE_FONT_SIZE);
    } else setFont(BASE_FONT_SIZE * wanted);
    const size = measure();
    box.style.width = `${size.width + pad}px`;
    box.style.height = `${size.height}px`;
    scaleTo.current?.(font() / BASE_FONT_SIZE);
  }, []);

  const frame = useRef(0);
  const schedule = useCallback(() => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(layout);
  }, [layout]);

  useEffect(() => {
    const view = viewport.current;
    if (!view) return undefined;
    const observer = new ResizeObserver(schedule);
    observer.observe(view);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame.current);
    };
  }, [schedule]);

  useEffect(() => {
    zoomNow.current = zoom;
    schedule();
  }, [zoom, schedule]);

  const ready = useRef(onReady);
  const onTerminal = useCallback(
    (handle: XtermHandle) => {
      term.current = handle.term;
      handle.term.onResize(schedule);
      ready.current(handle);
      schedule();
    },
    [schedule],
  );

  return (
    <div ref={viewport} className={mergeClasses(styles.viewport, className)} data-viewer="viewport">
      <div ref={stage} className={styles.stage}>
        <XtermView label={label} readOnly fit={false} onReady={onTerminal} options={{ fontSize: BASE_FONT_SIZE, ...options }} />
      </div>
    </div>
  );
}
