import { confirm, formatBytes, formatDateTime, FormDialog, Pager, startDownload, useApi, useBus, useQuery, useTranslation } from '@/core';
import {
  Button,
  type ButtonProps,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DrawerBody,
  DrawerHeader,
  DrawerHeaderTitle,
  Input,
  makeStyles,
  mergeClasses,
  OverlayDrawer,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Textarea,
  Tooltip,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons/svg/arrow-clockwise';
import { ArrowUpRegular } from '@fluentui/react-icons/svg/arrow-up';
import { ArrowUploadRegular } from '@fluentui/react-icons/svg/arrow-upload';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import { DismissRegular } from '@fluentui/react-icons/svg/dismiss';
import { FolderAddRegular } from '@fluentui/react-icons/svg/folder-add';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { cloneElement, type DragEvent, type MouseEvent, type ReactElement, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { allowed, type RemoteFile, type SessionFlags, sessionApi } from '../api';
import { FileIcon } from './FileIcon';
import { UploadList, useUploads } from './UploadList';

export interface FileManagerProps {
  open: boolean;
  onClose: () => void;
  flags: SessionFlags;
}

const useStyles = makeStyles({
  drawer: { width: 'min(1100px, 90vw)' },
  body: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, minHeight: '100%' },
  dropping: { outline: `${tokens.strokeWidthThick} dashed ${tokens.colorBrandStroke1}`, outlineOffset: '-4px' },
  bar: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXS },
  path: { flexGrow: 1 },
  filter: { width: '200px' },
  name: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalS, cursor: 'default', userSelect: 'none' },
  editor: { width: 'min(1200px, 80vw)', maxWidth: 'none' },
  editorText: { width: '100%', height: '65vh', fontFamily: tokens.fontFamilyMonospace, '& textarea': { maxHeight: 'none', height: '100%' } },
});

/** `dir` joined with `name` ('/' stays single). */
export const joinPath = (dir: string, name: string) => `${dir.replace(/\/+$/, '')}/${name}`;
/** The parent of a path; '/' is its own. */
export const parentOf = (path: string) => path.replace(/\/+$/, '').replace(/\/[^/]*$/, '') || '/';

/**
 * A folder lists a page at a time (100 entries by default): /usr/bin or /var/log hold thousands, and rendering every
 * row took seconds per listing and per click (scripts/bench-file-manager.ts).
 */
const FILE_PAGE_SIZES = [50, 100, 200, 500] as const;
const DEFAULT_PAGE_SIZE = 100;

/** The entries whose name contains `filter`, without case; all of them for an empty filter. */
function filterEntries(entries: readonly RemoteFile[], filter: string): readonly RemoteFile[] {
  const wanted = filter.trim().toLocaleLowerCase();
  return wanted === '' ? entries : entries.filter((e) => e.name.toLocaleLowerCase().includes(wanted));
}

// One collator for every comparison: `localeCompare` with options builds one per call (slow on thousands of names).
const byName = new Intl.Collator(undefined, { sensitivity: 'base' }).compare;

/** Folders first, then files, each by name without case (screens §5.1). */
export function sortEntries(entries: readonly RemoteFile[]): RemoteFile[] {
  return [...entries].sort((a, b) => Number(b.isDir) - Number(a.isDir) || byName(a.name, b.name));
}

type Editing = { file: RemoteFile; text: string | null; saving: boolean } | null;

/**
 * The file manager of an SSH session (screens §5.1, over SFTP on the live session): browse, new folder, upload (button
 * or drop) with per-file progress, download, edit, rename, delete. An action the strategy refuses stays visible but
 * disabled, saying why.
 */
export function FileManager({ open, onClose, flags }: FileManagerProps) {
  const { t } = useTranslation('terminal');
  const styles = useStyles();
  const api = useApi();
  const bus = useBus();
  const files = useMemo(() => sessionApi(api), [api]);
  // null until the session's home folder is known: the manager opens there (where the shell starts), not at `/`.
  const [dir, setDir] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [filter, setFilter] = useState('');
  const [pageIndex, setPageIndex] = useState(1);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [dropping, setDropping] = useState(false);
  const [mkdirOpen, setMkdirOpen] = useState(false);
  const [renaming, setRenaming] = useState<RemoteFile | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const picker = useRef<HTMLInputElement>(null);

  const can = {
    upload: allowed(flags.upload),
    // Ours: a server that sends createDir decides mkdir with it; 1.3.9's had only upload.
    mkdir: allowed(flags.createDir ?? flags.upload),
    download: allowed(flags.download),
    delete: allowed(flags.delete),
    rename: allowed(flags.rename),
    edit: allowed(flags.edit),
  };

  const home = useQuery({
    queryKey: ['terminal', 'home', flags.id],
    queryFn: () => files.home(flags.id),
    enabled: open && dir === null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    if (dir === null && home.data !== undefined) {
      setDir(home.data);
      setTyped(home.data);
    }
  }, [dir, home.data]);

  const listing = useQuery({
    queryKey: ['terminal', 'ls', flags.id, dir],
    queryFn: () => files.ls(flags.id, dir ?? '/'),
    enabled: open && dir !== null,
    staleTime: 0,
    gcTime: 0,
  });
  const entries = useMemo(() => sortEntries(listing.data ?? []), [listing.data]);
  const matching = useMemo(() => filterEntries(entries, filter), [entries, filter]);
  // A page past the end (entries deleted, a narrower filter) shows the last one.
  const page = Math.min(pageIndex, Math.max(1, Math.ceil(matching.length / pageSize)));
  const shown = useMemo(() => matching.slice((page - 1) * pageSize, page * pageSize), [matching, page, pageSize]);
  const refresh = () => {
    setSelected(new Set());
    void listing.refetch();
  };
  const uploads = useUploads(refresh);

  const go = (next: string) => {
    const path = next.trim() === '' ? '/' : next.trim();
    setDir(path);
    setTyped(path);
    setSelected(new Set());
    setFilter('');
    setPageIndex(1);
  };
  const pathOf = (entry: RemoteFile) => entry.path || joinPath(dir ?? '/', entry.name);
  /** Double-click: a folder (or a link, which may lead to one) opens; a file is offered for download when allowed. */
  const openEntry = (entry: RemoteFile) => {
    if (entry.isDir || entry.isLink) go(pathOf(entry));
    else if (can.download) startDownload(files.downloadUrl(flags.id, pathOf(entry)), entry.name);
    else bus.emit('notify', { intent: 'warning', message: t('files.forbidden', { action: t('files.download') }) });
  };
  const done = (message: string) => {
    bus.emit('notify', { intent: 'success', message });
    refresh();
  };

  const remove = async (paths: string[]) => {
    const ok = await confirm({
      title: paths.length === 1 ? t('files.deleteOne', { name: paths[0] }) : t('files.deleteMany', { count: paths.length }),
      message: t('files.deleteRecursive'),
      danger: true,
    });
    if (!ok) return;
    try {
      for (const path of paths) await files.rm(flags.id, path);
    } finally {
      // Some may be gone even when a later one failed: show what is there now.
      refresh();
    }
    bus.emit('notify', { intent: 'success', message: t('files.deleted') });
  };

  const upload = (list: FileList | readonly File[]) => {
    for (const file of Array.from(list)) uploads.start(files.uploadUrl(flags.id, dir ?? '/'), file);
  };

  const startEdit = async (file: RemoteFile) => {
    setEditing({ file, text: null, saving: false });
    try {
      const text = await files.read(flags.id, file.path);
      setEditing((e) => (e && e.file === file ? { ...e, text } : e));
    } catch (error) {
      setEditing(null);
      bus.emit('notify', { intent: 'error', message: t('files.readFailed', { message: error instanceof Error ? error.message : String(error) }) });
    }
  };
  const saveEdit = async () => {
    if (!editing || editing.text === null) return;
    setEditing({ ...editing, saving: true });
    try {
      await files.edit(flags.id, editing.file.path, editing.text);
      setEditing(null);
      done(t('files.saved'));
    } catch {
      setEditing((e) => (e ? { ...e, saving: false } : e)); // the client toasted why
    }
  };

  /** A button the strategy may refuse: disabled, with the reason as its tooltip. */
  const gated = (permitted: boolean, label: string, button: ReactElement<ButtonProps>, otherwiseDisabled = false): ReactNode =>
    permitted ? (
      <Tooltip content={label} relationship="label">
        {otherwiseDisabled ? cloneElement(button, { disabled: true }) : button}
      </Tooltip>
    ) : (
      // Focusable while disabled, so keyboard users reach the reason too.
      <Tooltip content={t('files.forbidden', { action: label })} relationship="description">
        {cloneElement(button, { disabledFocusable: true, 'aria-label': label })}
      </Tooltip>
    );

  // Select all = the entries on screen: a batch delete never reaches rows the user cannot see.
  const selectable = shown.map((e) => e.path);
  const allSelected = selectable.length > 0 && selectable.every((p) => selected.has(p));
  const toggle = (path: string) =>
    setSelected((before) => {
      const next = new Set(before);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDropping(false);
    if (!can.upload) {
      bus.emit('notify', { intent: 'warning', message: t('files.forbidden', { action: t('files.upload') }) });
      return;
    }
    if (event.dataTransfer.files.length > 0) upload(event.dataTransfer.files);
  };

  return (
    <OverlayDrawer open={open} position="end" size="large" className={styles.drawer} onOpenChange={(_, data) => !data.open && onClose()}>
      <DrawerHeader>
        <DrawerHeaderTitle action={<Button appearance="subtle" aria-label={t('actions.close')} icon={<DismissRegular />} onClick={onClose} />}>
          {t('files.title')}
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody
        className={mergeClasses(styles.body, dropping && styles.dropping)}
        aria-label={t('files.dropZone')}
        onDragOver={(event: DragEvent) => {
          event.preventDefault();
          if (!dropping) setDropping(true);
        }}
        onDragLeave={() => setDropping(false)}
        onDrop={onDrop}
      >
        <div className={styles.bar}>
          <Tooltip content={t('files.up')} relationship="label">
            <Button icon={<ArrowUpRegular />} disabled={dir === null || dir === '/'} onClick={() => dir !== null && go(parentOf(dir))} />
          </Tooltip>
          <Input
            className={styles.path}
            aria-label={t('files.path')}
            value={typed}
            onChange={(_, data) => setTyped(data.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') go(typed);
            }}
          />
          {gated(can.mkdir, t('files.mkdir'), <Button icon={<FolderAddRegular />} onClick={() => setMkdirOpen(true)} />)}
          {gated(can.upload, t('files.upload'), <Button icon={<ArrowUploadRegular />} onClick={() => picker.current?.click()} />)}
          <Input
            className={styles.filter}
            aria-label={t('files.filter')}
            placeholder={t('files.filter')}
            contentBefore={<SearchRegular />}
            value={filter}
            onChange={(_, data) => {
              setFilter(data.value);
              setPageIndex(1);
            }}
          />
          <Tooltip content={t('files.refresh')} relationship="label">
            <Button icon={<ArrowClockwiseRegular />} onClick={refresh} />
          </Tooltip>
          {gated(
            can.delete,
            t('files.deleteSelected'),
            <Button icon={<DeleteRegular />} onClick={() => void remove([...selected])} />,
            selected.size === 0,
          )}
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            aria-label={t('files.upload')}
            onChange={(event) => {
              if (event.target.files) upload(event.target.files);
              event.target.value = '';
            }}
          />
        </div>
        {dir === null || listing.isPending ? (
          <Spinner size="small" label={t('files.loading')} />
        ) : (
          <Table size="small" aria-label={t('files.title')}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell style={{ width: 40 }}>
                  <Checkbox
                    aria-label={t('files.selectAll')}
                    checked={allSelected ? true : selected.size > 0 ? 'mixed' : false}
                    onChange={() => setSelected(allSelected ? new Set() : new Set(selectable))}
                  />
                </TableHeaderCell>
                <TableHeaderCell>{t('files.name')}</TableHeaderCell>
                <TableHeaderCell style={{ width: 110 }}>{t('files.size')}</TableHeaderCell>
                <TableHeaderCell style={{ width: 170 }}>{t('files.modified')}</TableHeaderCell>
                <TableHeaderCell style={{ width: 120 }}>{t('files.mode')}</TableHeaderCell>
                <TableHeaderCell style={{ width: 260 }}>{t('files.actions')}</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {dir !== '/' ? (
                <TableRow onDoubleClick={() => go(parentOf(dir))}>
                  <TableCell />
                  <TableCell>
                    <span className={styles.name}>
                      <FileIcon name=".." isDir isLink={false} />
                      ..
                    </span>
                  </TableCell>
                  <TableCell />
                  <TableCell />
                  <TableCell />
                  <TableCell />
                </TableRow>
              ) : null}
              {shown.map((entry) => (
                <TableRow
                  key={entry.path}
                  aria-label={entry.name}
                  onDoubleClick={(event: MouseEvent) => {
                    // A double-click on the row's own controls (a checkbox, 下载) is theirs, not the row's.
                    if (!(event.target instanceof Element && event.target.closest('button, a, input'))) openEntry(entry);
                  }}
                >
                  <TableCell>
                    <Checkbox aria-label={t('files.select', { name: entry.name })} checked={selected.has(entry.path)} onChange={() => toggle(entry.path)} />
                  </TableCell>
                  <TableCell>
                    <span className={styles.name}>
                      <FileIcon name={entry.name} isDir={entry.isDir} isLink={entry.isLink} />
                      {entry.name}
                    </span>
                  </TableCell>
                  <TableCell>{entry.isDir || entry.isLink ? '' : formatBytes(entry.size)}</TableCell>
                  <TableCell>{formatDateTime(entry.modTime)}</TableCell>
                  <TableCell>{entry.mode}</TableCell>
                  <TableCell>
                    {entry.isDir ? null : (
                      <>
                        {gated(can.edit, t('files.edit'), <Button size="small" appearance="transparent" onClick={() => void startEdit(entry)}>{t('files.edit')}</Button>)}
                        {gated(
                          can.download,
                          t('files.download'),
                          <Button size="small" appearance="transparent" as="a" href={files.downloadUrl(flags.id, entry.path)} download={entry.name}>
                            {t('files.download')}
                          </Button>,
                        )}
                      </>
                    )}
                    {gated(can.rename, t('files.rename'), <Button size="small" appearance="transparent" onClick={() => setRenaming(entry)}>{t('files.rename')}</Button>)}
                    {gated(can.delete, t('files.delete'), <Button size="small" appearance="transparent" onClick={() => void remove([entry.path])}>{t('files.delete')}</Button>)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {!listing.isPending && entries.length === 0 ? <span>{t('files.empty')}</span> : null}
        {!listing.isPending && entries.length > 0 && matching.length === 0 ? <span>{t('files.noMatch', { filter: filter.trim() })}</span> : null}
        {!listing.isPending && matching.length > FILE_PAGE_SIZES[0] ? (
          <Pager
            pageIndex={page}
            pageSize={pageSize}
            total={matching.length}
            pageSizeOptions={FILE_PAGE_SIZES}
            onPageChange={setPageIndex}
            onPageSizeChange={(size) => {
              setPageSize(size);
              setPageIndex(1);
            }}
          />
        ) : null}
        <UploadList uploads={uploads.list} onCancel={uploads.cancel} />
      </DrawerBody>

      <FormDialog<{ name: string }>
        open={mkdirOpen}
        onClose={() => setMkdirOpen(false)}
        title={t('files.mkdir')}
        initialValues={{ name: '' }}
        fields={[{ name: 'name', label: t('files.folderName'), required: true, maxLength: 255 }]}
        onSubmit={async ({ name }) => {
          await files.mkdir(flags.id, joinPath(dir ?? '/', name.trim()));
          done(t('files.created'));
        }}
      />
      <FormDialog<{ name: string }>
        open={renaming !== null}
        onClose={() => setRenaming(null)}
        title={t('files.rename')}
        initialValues={{ name: renaming?.name ?? '' }}
        fields={[{ name: 'name', label: t('files.newName'), required: true, maxLength: 255 }]}
        onSubmit={async ({ name }) => {
          if (!renaming) return;
          if (name.trim() !== renaming.name) await files.rename(flags.id, renaming.path, joinPath(dir ?? '/', name.trim()));
          done(t('files.renamed'));
        }}
      />
      <Dialog open={editing !== null} onOpenChange={(_, data) => !data.open && setEditing(null)}>
        <DialogSurface className={styles.editor}>
          <DialogBody>
            <DialogTitle>{t('files.editTitle', { name: editing?.file.name ?? '' })}</DialogTitle>
            <DialogContent>
              {editing?.text === null ? (
                <Spinner size="small" label={t('files.loading')} />
              ) : (
                <Textarea
                  className={styles.editorText}
                  aria-label={t('files.content')}
                  resize="none"
                  value={editing?.text ?? ''}
                  onChange={(_, data) => setEditing((e) => (e ? { ...e, text: data.value } : e))}
                />
              )}
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setEditing(null)}>{t('actions.cancel')}</Button>
              <Button appearance="primary" disabled={editing?.text === null || editing?.saving} onClick={() => void saveEdit()}>
                {t('actions.save')}
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </OverlayDrawer>
  );
}
