import { makeStyles, ProgressBar, Text, tokens } from '@fluentui/react-components';
import { useCallback, useState } from 'react';
import { useUiT } from './i18n';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', minWidth: '200px', rowGap: tokens.spacingVerticalXXS },
});

/** How far a batch has got: `done` of `total` items. */
export interface BatchProgressState {
  done: number;
  total: number;
}

/**
 * Runs `run` over `items` in chunks of `size`, one chunk after the other (so the server never gets more than one chunk
 * at a time), calling `onChunk` with each chunk's result as it arrives. Stops at the first chunk that fails (rejects
 * with its error).
 */
export async function runInChunks<Item, Result>(
  items: readonly Item[],
  size: number,
  run: (chunk: Item[]) => Promise<Result>,
  onChunk?: (result: Result, chunk: Item[], done: number) => void,
): Promise<void> {
  const step = Math.max(1, Math.floor(size));
  for (let at = 0; at < items.length; at += step) {
    const chunk = items.slice(at, at + step);
    const result = await run(chunk);
    onChunk?.(result, chunk, at + chunk.length);
  }
}

export interface BatchRun {
  /** `null` while nothing runs. */
  progress: BatchProgressState | null;
  /** `runInChunks` with its progress kept in `progress` (cleared at the end, failed or not). */
  run: <Item, Result>(
    items: readonly Item[],
    size: number,
    run: (chunk: Item[]) => Promise<Result>,
    onChunk?: (result: Result, chunk: Item[]) => void,
  ) => Promise<void>;
}

/** A batch run over many records in chunks, with its progress for a `BatchProgress`. */
export function useBatchRun(): BatchRun {
  const [progress, setProgress] = useState<BatchProgressState | null>(null);
  const run = useCallback(
    async <Item, Result>(
      items: readonly Item[],
      size: number,
      call: (chunk: Item[]) => Promise<Result>,
      onChunk?: (result: Result, chunk: Item[]) => void,
    ) => {
      const total = items.length;
      setProgress({ done: 0, total });
      try {
        await runInChunks(items, size, call, (result, chunk, done) => {
          onChunk?.(result, chunk);
          setProgress({ done, total });
        });
      } finally {
        setProgress(null);
      }
    },
    [],
  );
  return { progress, run };
}

export interface BatchProgressProps {
  /** What runs, already translated (e.g. 连通性测试); the bar is labelled with it. */
  label: string;
  /** Nothing is shown while `null`. */
  progress: BatchProgressState | null;
}

/** A batch's progress: a Fluent ProgressBar under `label done/total` (a live status: screen readers hear it move). */
export function BatchProgress({ label, progress }: BatchProgressProps) {
  const styles = useStyles();
  const t = useUiT();
  if (!progress) return null;
  const { done, total } = progress;
  const text = t('ui.progress', { label, done, total });
  return (
    <div role="status" className={styles.root}>
      <Text size={200}>{text}</Text>
      <ProgressBar value={total === 0 ? 1 : done / total} max={1} thickness="large" aria-label={label} />
    </div>
  );
}
