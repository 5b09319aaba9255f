import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Link as FluentLink,
  makeStyles,
  MessageBar,
  MessageBarBody,
  mergeClasses,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowUploadRegular } from '@fluentui/react-icons/svg/arrow-upload';
import { type ReactNode, useId, useRef, useState } from 'react';
import { useUiT } from './i18n';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  picker: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalM },
  // Out of sight but in the page, with its accessible name: the visible button opens it.
  input: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clipPath: 'inset(50%)',
    whiteSpace: 'nowrap',
  },
  scroll: { maxHeight: '50vh', overflow: 'auto' },
  table: { tableLayout: 'auto', minWidth: '100%' },
  bad: { backgroundColor: tokens.colorStatusDangerBackground1 },
  error: { color: tokens.colorStatusDangerForeground1 },
});

/** A preview table's column; the kit adds the row's error as the last one. */
export interface ImportColumn<Row> {
  key: string;
  /** Already translated. */
  header: string;
  render: (row: Row) => ReactNode;
}

export interface ImportDialogProps<Row> {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  /** What the picker offers, e.g. `.csv`. */
  accept?: string;
  /** How to fill the file in, shown above the picker. */
  note?: ReactNode;
  /** A sample file to download: its link text, file name and target (e.g. `textFileHref(…)`). */
  sample?: { label: string; fileName: string; href: string };
  /**
   * Reads a chosen file without importing anything (a dry run): every row as it would be imported, with its error.
   * A rejection is shown in the dialog (another file may then be chosen).
   */
  preview: (file: File) => Promise<readonly Row[]>;
  columns: readonly ImportColumn<Row>[];
  getRowKey: (row: Row) => string | number;
  /** Why a row would not be imported; empty for a good row. */
  rowError: (row: Row) => string | null | undefined;
  /** Imports the file (its good rows). Resolve to close; reject to stay open and show the message. */
  onImport: (file: File) => Promise<void>;
  /** Dialog width in px (default 860). */
  width?: number;
}

// Past this many rows the preview shows the rows with an error first, then good ones up to the limit.
const PREVIEW_LIMIT = 200;

type Step<Row> =
  | { kind: 'empty' }
  | { kind: 'checking'; file: File }
  | { kind: 'failed'; file: File; message: string }
  | { kind: 'ready'; file: File; rows: readonly Row[] };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Import from a file in three steps: pick the file, see what a dry run makes of every row (errors highlighted), then
 * import the good rows. The dialog starts afresh on every open.
 */
export function ImportDialog<Row>(props: ImportDialogProps<Row>) {
  const { open, onClose, width = 860 } = props;
  return (
    <Dialog
      open={open}
      modalType="modal"
      onOpenChange={(_, data) => {
        if (!data.open && data.type !== 'backdropClick') onClose();
      }}
    >
      <DialogSurface style={{ maxWidth: `min(${width}px, calc(100vw - 32px))` }}>{open ? <ImportBody {...props} /> : null}</DialogSurface>
    </Dialog>
  );
}

function ImportBody<Row>({ onClose, title, accept, note, sample, preview, columns, getRowKey, rowError, onImport }: ImportDialogProps<Row>) {
  const styles = useStyles();
  const t = useUiT();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<Step<Row>>({ kind: 'empty' });
  const [busy, setBusy] = useState(false);
  const [importError, setImportError] = useState<string>();
  // The latest choice wins: a slower dry run of an earlier file must not replace it.
  const latest = useRef<File | null>(null);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    latest.current = file;
    setImportError(undefined);
    setStep({ kind: 'checking', file });
    try {
      const rows = await preview(file);
      if (latest.current === file) setStep({ kind: 'ready', file, rows });
    } catch (error) {
      if (latest.current === file) setStep({ kind: 'failed', file, message: messageOf(error) });
    }
  };

  const rows = step.kind === 'ready' ? step.rows : [];
  const bad = rows.filter((row) => Boolean(rowError(row)));
  const good = rows.length - bad.length;
  const shown =
    rows.length <= PREVIEW_LIMIT ? rows : [...bad, ...rows.filter((row) => !rowError(row))].slice(0, Math.max(PREVIEW_LIMIT, bad.length));

  const runImport = async () => {
    if (step.kind !== 'ready' || good === 0 || busy) return;
    setBusy(true);
    setImportError(undefined);
    try {
      await onImport(step.file);
      setBusy(false);
      onClose();
    } catch (error) {
      setBusy(false);
      setImportError(messageOf(error));
    }
  };

  return (
    <DialogBody>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent className={styles.content}>
        {note ? (
          <MessageBar intent="info">
            <MessageBarBody>{note}</MessageBarBody>
          </MessageBar>
        ) : null}
        <div className={styles.picker}>
          <input
            ref={input}
            id={inputId}
            className={styles.input}
            type="file"
            accept={accept}
            aria-label={t('ui.import.choose')}
            disabled={busy}
            onChange={(e) => {
              const file = e.target.files?.[0];
              // Cleared, so choosing the same file again (after fixing it) runs the check again.
              e.target.value = '';
              void choose(file);
            }}
          />
          <Button icon={<ArrowUploadRegular />} disabled={busy} onClick={() => input.current?.click()} aria-controls={inputId}>
            {t('ui.import.choose')}
          </Button>
          {step.kind === 'empty' ? <Text>{t('ui.import.noFile')}</Text> : <Text weight="semibold">{step.file.name}</Text>}
          {sample ? (
            <FluentLink href={sample.href} download={sample.fileName}>
              {sample.label}
            </FluentLink>
          ) : null}
        </div>
        {step.kind === 'checking' ? <Spinner size="small" label={t('ui.import.checking')} /> : null}
        {step.kind === 'failed' ? (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{step.message}</MessageBarBody>
          </MessageBar>
        ) : null}
        {importError ? (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{importError}</MessageBarBody>
          </MessageBar>
        ) : null}
        {step.kind === 'ready' ? (
          <>
            <Text>
              {bad.length > 0 ? t('ui.import.summaryErrors', { total: rows.length, errors: bad.length }) : t('ui.import.summary', { total: rows.length })}
              {shown.length < rows.length ? ` ${t('ui.import.truncated', { shown: shown.length })}` : ''}
            </Text>
            <div className={styles.scroll}>
              <Table className={styles.table} size="small" aria-label={t('ui.import.preview')}>
                <TableHeader>
                  <TableRow>
                    {columns.map((c) => (
                      <TableHeaderCell key={c.key}>{c.header}</TableHeaderCell>
                    ))}
                    <TableHeaderCell>{t('ui.import.error')}</TableHeaderCell>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {shown.map((row) => {
                    const error = rowError(row);
                    return (
                      <TableRow key={String(getRowKey(row))} className={mergeClasses(error ? styles.bad : undefined)} aria-invalid={error ? true : undefined}>
                        {columns.map((c) => (
                          <TableCell key={c.key}>{c.render(row)}</TableCell>
                        ))}
                        <TableCell className={error ? styles.error : undefined}>{error || '-'}</TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </div>
          </>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button appearance="secondary" disabled={busy} onClick={onClose}>
          {t('ui.cancel')}
        </Button>
        <Button
          appearance="primary"
          disabled={step.kind !== 'ready' || good === 0 || busy}
          icon={busy ? <Spinner size="tiny" /> : undefined}
          aria-busy={busy || undefined}
          onClick={() => void runImport()}
        >
          {step.kind === 'ready' ? t('ui.import.confirm', { count: good }) : t('ui.import.start')}
        </Button>
      </DialogActions>
    </DialogBody>
  );
}
