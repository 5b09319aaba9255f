// A terminal with no screen, for what a page computes from terminal output without showing it: a recording
// player's keyframes (the screen every few seconds, so that a seek replays only from the nearest one). xterm and its
// serialize add-on load on demand, in the terminal's own chunk, as XtermView's do.

/** An off-screen terminal: takes output like a real one, and gives its screen back as a replayable snapshot. */
export interface ShadowTerminal {
  readonly cols: number;
  readonly rows: number;
  /**
   * Queues output (xterm parses it asynchronously; `flushed()` waits for it). `callback` runs once this data is
   * parsed, before anything written after it (a resize made there applies between the two, as in a recording).
   */
  write(data: string, callback?: () => void): void;
  /** Resolves once everything written so far has been parsed. */
  flushed(): Promise<void>;
  resize(cols: number, rows: number): void;
  /** Back to a blank screen with default modes (the size stays). */
  reset(): void;
  /**
   * The current screen (text, colours, cursor, modes, the alternate screen) as the output that redraws it: written to
   * a reset terminal of the same size it gives this state back. Call after `flushed()`.
   */
  snapshot(): string;
  dispose(): void;
}

const loadShadowParts = () => Promise.all([import('@xterm/xterm'), import('@xterm/addon-serialize')]);

/** Creates an off-screen terminal of this size; no scrollback: a snapshot is the screen only, kept small. */
export async function createShadowTerminal(cols: number, rows: number): Promise<ShadowTerminal> {
  const [{ Terminal }, { SerializeAddon }] = await loadShadowParts();
  const term = new Terminal({ cols, rows, scrollback: 0, allowProposedApi: true });
  const serializer = new SerializeAddon();
  term.loadAddon(serializer);
  return {
    get cols() {
      return term.cols;
    },
    get rows() {
      return term.rows;
    },
    write: (data, callback) => term.write(data, callback),
    flushed: () => new Promise<void>((resolve) => term.write('', resolve)),
    resize: (c, r) => term.resize(c, r),
    reset: () => term.reset(),
    snapshot: () => serializer.serialize(),
    dispose: () => term.dispose(),
  };
}
