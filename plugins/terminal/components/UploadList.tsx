import { formatBytes, useTranslation } from '@/core';
import { Button, Field, makeStyles, ProgressBar, tokens } from '@fluentui/react-components';
import { useCallback, useRef, useState } from 'react';
import { type RunningUpload, UploadError, uploadFile } from './upload';

/** Where one file's upload is: sent to our server, then written by it to the host. */
export type UploadPhase = 'sending' | 'transferring' | 'done' | 'failed' | 'cancelled';

export interface UploadItem {
  id: number;
  name: string;
  size: number;
  phase: UploadPhase;
  /** Bytes of the current leg. */
  loaded: number;
  message: string;
}

/** The uploads of a file manager; `onBatchDone` runs when the last running one ends (the listing refreshes). */
export function useUploads(onBatchDone: () => void) {
  const [list, setList] = useState<UploadItem[]>([]);
  const running = useRef(new Map<number, RunningUpload>());
  const nextId = useRef(1);
  const batchDone = useRef(onBatchDone);
  batchDone.current = onBatchDone;

  const update = useCallback(
    (id: number, change: Partial<UploadItem>) => setList((items) => items.map((item) => (item.id === id ? { ...item, ...change } : item))),
    [],
  );

  const start = useCallback((url: string, file: File) => {
    const id = nextId.current++;
    setList((items) => [...items, { id, name: file.name, size: file.size, phase: 'sending', loaded: 0, message: '' }]);
    const upload = uploadFile(url, file, {
      // Once the request is sent, what remains is the server's copy to the host.
      onSent: (loaded, total) => update(id, loaded >= total ? { phase: 'transferring', loaded: 0 } : { loaded }),
      onTransferred: (bytes) => update(id, { phase: 'transferring', loaded: bytes }),
    });
    running.current.set(id, upload);
    upload.done.then(
      () => update(id, { phase: 'done', loaded: file.size }),
      (error: unknown) =>
        update(id, error instanceof UploadError && error.cancelled ? { phase: 'cancelled' } : { phase: 'failed', message: error instanceof Error ? error.message : '' }),
    ).finally(() => {
      running.current.delete(id);
      if (running.current.size === 0) batchDone.current();
    });
  }, [update]);

  const cancel = useCallback((id: number) => running.current.get(id)?.abort(), []);
  return { list, start, cancel };
}

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, marginTop: 'auto', paddingTop: tokens.spacingVerticalM },
  row: { display: 'flex', alignItems: 'flex-end', columnGap: tokens.spacingHorizontalS },
  field: { flexGrow: 1 },
});

/** One progress bar per file: sending, transferring to the host, then uploaded / failed / cancelled; cancel aborts. */
export function UploadList({ uploads, onCancel }: { uploads: readonly UploadItem[]; onCancel: (id: number) => void }) {
  const { t } = useTranslation('terminal');
  const styles = useStyles();
  if (uploads.length === 0) return null;
  return (
    <section className={styles.list} aria-label={t('upload.title')}>
      {uploads.map((u) => {
        const active = u.phase === 'sending' || u.phase === 'transferring';
        const fraction = u.size > 0 ? Math.min(1, u.loaded / u.size) : active ? 0 : 1;
        const hint =
          u.phase === 'failed'
            ? t('upload.failed', { message: u.message || t('upload.unknownError') })
            : active
              ? `${t(`upload.${u.phase}`)} ${formatBytes(u.loaded)} / ${formatBytes(u.size)}`
              : t(`upload.${u.phase}`);
        return (
          <div key={u.id} className={styles.row}>
            <Field
              className={styles.field}
              label={u.name}
              validationState={u.phase === 'failed' ? 'error' : u.phase === 'done' ? 'success' : 'none'}
              validationMessage={hint}
            >
              <ProgressBar
                aria-label={u.name}
                value={u.phase === 'done' ? 1 : fraction}
                color={u.phase === 'failed' || u.phase === 'cancelled' ? 'error' : u.phase === 'done' ? 'success' : 'brand'}
              />
            </Field>
            {active ? (
              <Button size="small" onClick={() => onCancel(u.id)} aria-label={t('upload.cancel', { name: u.name })}>
                {t('actions.cancel')}
              </Button>
            ) : null}
          </div>
        );
      })}
    </section>
  );
}
