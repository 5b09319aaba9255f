import { type ComponentType, useEffect, useRef, useState } from 'react';
import { ChunkError } from './ChunkError';
import { useCore } from './context';
import { isChunkLoadError, newVersionDeployed } from './deploy';
import { Landing } from './Landing';

// Everything that arrives on demand (page chunks, layouts, locale files) shows the same way: the placeholder
// while it loads, a generic error with a retry when it fails or exceeds the chunk time-out (spec §9, 120 s).

class ChunkTimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not load within ${ms} ms`);
    this.name = 'ChunkTimeoutError';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkTimeoutError(what, ms)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

type LoadState<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; newVersion: boolean };

/**
 * Loads something that arrives on demand once per `what` and retry: `loading`, then `ready`, or `error` when it
 * fails or exceeds the chunk time-out. `load` must start a fresh attempt on each call.
 */
function useOnDemand<T>(load: () => Promise<T>, what: string, onFail?: () => void, ready?: T) {
  const { chunkTimeoutMs, overlays } = useCore();
  const [attempt, setAttempt] = useState(0);
  // Already at hand (the chunk came with the early start or an earlier page): shown in the first pass, no placeholder.
  const [state, setState] = useState<LoadState<T>>(() => (ready === undefined ? { status: 'loading' } : { status: 'ready', value: ready }));
  const startedReady = useRef(ready !== undefined);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry trigger; `load` is keyed by `what`
  useEffect(() => {
    if (startedReady.current) {
      startedReady.current = false;
      return;
    }
    let live = true;
    setState({ status: 'loading' });
    withTimeout(load(), chunkTimeoutMs, what).then(
      (value) => {
        if (live) setState({ status: 'ready', value });
      },
      async (error: unknown) => {
        // A chunk that could not be fetched is on screen (with its retry) and in the browser's own log of the failed
        // request; anything else (a broken module) is a bug worth the console.
        if (!isChunkLoadError(error)) console.error(error);
        onFail?.();
        // A time-out is the network; any other failure may be a deploy that replaced the chunks.
        const newVersion = !(error instanceof ChunkTimeoutError) && (await newVersionDeployed());
        if (live) setState({ status: 'error', newVersion });
      },
    );
    return () => {
      live = false;
    };
  }, [what, chunkTimeoutMs, attempt]);

  // The first screen is up: now fetch the toast/confirm overlays (kept off the start, see CoreProvider).
  useEffect(() => {
    if (state.status === 'ready') overlays.request();
  }, [state.status, overlays]);

  return { state, retry: () => setAttempt((n) => n + 1) };
}

/**
 * Renders a component that lives in an on-demand chunk: the placeholder while it loads, then the
 * component, or a generic error with a retry when it fails or exceeds the chunk time-out.
 * `load` must return a fresh attempt on each call (failed imports are not cached).
 */
export function ChunkLoader({
  load,
  what,
  inline,
  onFail,
  ready,
}: {
  load: () => Promise<ComponentType>;
  what: string;
  inline: boolean;
  /** Called on failure or time-out, before the error shows (e.g. to drop a cached pending import). */
  onFail?: () => void;
  /** The component when it is already loaded: rendered at once (read on mount only). */
  ready?: ComponentType;
}) {
  const { state, retry } = useOnDemand(load, what, onFail, ready);
  if (state.status === 'loading') return <Landing inline={inline} />;
  if (state.status === 'error') return <ChunkError onRetry={retry} newVersion={state.newVersion} />;
  const Component = state.value;
  return <Component />;
}
