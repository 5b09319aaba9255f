import type { ShadowTerminal, XtermHandle, XtermViewProps } from '@/core';
import { useEffect, useRef } from 'react';

/**
 * XtermView's stand-in for page tests: jsdom cannot lay out xterm's screen, so the page's terminal is an off-screen
 * xterm (core's shadow terminal) whose screen a test reads with `shownText()`. Same contract: `onReady` once, with
 * the terminal; read-only pages get no keystrokes anyway. Use it with
 * `vi.mock('@/core', async (importOriginal) => { const core = await importOriginal<typeof import('@/core')>();
 *   return { ...core, XtermView: (await import('./fakeXterm')).fakeXtermView(core.createShadowTerminal) }; })`.
 */
export const fakeTerms: { term: ShadowTerminal; label: string; fontSize?: number }[] = [];

type ShadowFactory = (cols: number, rows: number) => Promise<ShadowTerminal>;
let createShadowTerminal: ShadowFactory | null = null;

/** The stand-in, on core's real shadow terminal (this module may not import `@/core`: the tests mock it). */
export function fakeXtermView(factory: ShadowFactory): typeof FakeXtermView {
  createShadowTerminal = factory;
  return FakeXtermView;
}

function FakeXtermView({ label, onReady }: XtermViewProps) {
  // The first props win, as in XtermView: a re-render does not make another terminal.
  const first = useRef({ label, onReady });
  useEffect(() => {
    const { label, onReady } = first.current;
    let live = true;
    if (!createShadowTerminal) throw new Error('fakeXtermView(createShadowTerminal) first');
    void createShadowTerminal(80, 24).then((shadow) => {
      if (!live) return;
      const entry: (typeof fakeTerms)[number] = { term: shadow, label };
      fakeTerms.push(entry);
      const resizeListeners: ((size: { cols: number; rows: number }) => void)[] = [];
      // xterm's DOM as far as a page measures it: the screen element is cols × rows cells of 0.6 × 1.2 font sizes
      // (jsdom lays nothing out, so its size is given here).
      const host = document.createElement('div');
      const element = document.createElement('div');
      const screenElement = document.createElement('div');
      screenElement.className = 'xterm-screen';
      element.append(screenElement);
      host.append(element);
      const font = () => entry.fontSize ?? 15;
      Object.defineProperty(screenElement, 'offsetWidth', { get: () => shadow.cols * 0.6 * font() });
      Object.defineProperty(screenElement, 'offsetHeight', { get: () => shadow.rows * 1.2 * font() });
      const term = {
        element,
        write: shadow.write,
        reset: shadow.reset,
        resize(cols: number, rows: number) {
          shadow.resize(cols, rows);
          for (const listener of resizeListeners) listener({ cols, rows });
        },
        onResize(listener: (size: { cols: number; rows: number }) => void) {
          resizeListeners.push(listener);
          return { dispose: () => undefined };
        },
        options: {
          set fontSize(size: number) {
            entry.fontSize = size;
          },
          get fontSize() {
            return entry.fontSize ?? 15;
          },
        },
        get cols() {
          return shadow.cols;
        },
        get rows() {
          return shadow.rows;
        },
      };
      // The pages use write/reset/resize/onResize/options/element of xterm's Terminal: this object has those.
      // No page of this plugin searches: a search add-on that finds nothing.
      const search = { findNext: () => false, findPrevious: () => false, clearDecorations: () => undefined } as unknown as XtermHandle['search'];
      onReady({ term: term as unknown as XtermHandle['term'], fit: () => undefined, search });
    });
    return () => {
      live = false;
    };
  }, []);
  return <section aria-label={label} />;
}

/** The visible text of the last fake terminal's screen (escape sequences removed), once what was written is parsed. */
export async function shownText(): Promise<string> {
  const entry = fakeTerms.at(-1);
  if (!entry) return '';
  await entry.term.flushed();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping the ESC sequences of a serialized screen
  return entry.term.snapshot().replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}
