import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  mergeClasses,
  Spinner,
} from '@fluentui/react-components';
import { type ReactNode, useCallback, useEffect, useSyncExternalStore } from 'react';
import { useUiT } from './i18n';
import { useDangerStyles } from './styles';

export interface ConfirmOptions {
  title?: ReactNode;
  message?: ReactNode;
  /** Defaults to 确定. */
  confirmText?: string;
  /** Defaults to 取消. */
  cancelText?: string;
  /** Red confirm button. */
  danger?: boolean;
}

export interface ConfirmDialogProps extends ConfirmOptions {
  open: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** Busy confirm button (e.g. while the delete runs). */
  busy?: boolean;
}

/** A controlled alert dialog with Confirm / Cancel. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmText,
  cancelText,
  danger,
  busy,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const t = useUiT();
  const danger$ = useDangerStyles();
  return (
    <Dialog
      open={open}
      modalType="alert"
      onOpenChange={(_, data) => {
        if (!data.open) onCancel();
      }}
    >
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{title ?? t('ui.confirm.title')}</DialogTitle>
          {message ? <DialogContent>{message}</DialogContent> : null}
          <DialogActions>
            <Button appearance="secondary" disabled={busy} onClick={onCancel}>
              {cancelText ?? t('ui.cancel')}
            </Button>
            <Button
              appearance="primary"
              className={mergeClasses(danger && danger$.primary)}
              disabled={busy}
              icon={busy ? <Spinner size="tiny" /> : undefined}
              onClick={onConfirm}
            >
              {confirmText ?? t('ui.ok')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

interface PendingConfirm {
  id: number;
  options: ConfirmOptions;
  resolve: (ok: boolean) => void;
}

// Module-level queue shared by `confirm()` and the mounted `ConfirmHost` (one per application).
let queue: readonly PendingConfirm[] = [];
let nextId = 1;
let hosts = 0;
const listeners = new Set<() => void>();

function setQueue(next: readonly PendingConfirm[]) {
  queue = next;
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Asks the user; resolves `true` on confirm, `false` on cancel or Escape.
 * Needs one `<ConfirmHost />` mounted (the platform mounts it at the root); without a host it resolves `false`.
 */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  if (hosts === 0) {
    console.error('confirm(): no <ConfirmHost /> is mounted');
    return Promise.resolve(false);
  }
  return new Promise<boolean>((resolve) => {
    setQueue([...queue, { id: nextId++, options, resolve }]);
  });
}

/** The `confirm` function, for components (`const confirm = useConfirm(); if (await confirm({...})) …`). */
export function useConfirm(): (options: ConfirmOptions) => Promise<boolean> {
  return confirm;
}

/** `confirm` preset for the standard row delete: 您确认要删除此行吗? with a red confirm button. */
export function useConfirmDelete(): (options?: ConfirmOptions) => Promise<boolean> {
  const t = useUiT();
  return useCallback(
    (options?: ConfirmOptions) =>
      confirm({ title: t('ui.confirm.deleteRow'), confirmText: t('ui.confirm.confirm'), danger: true, ...options }),
    [t],
  );
}

/** Renders the pending `confirm()` dialogs one at a time. Mount exactly once, inside FluentProvider and I18nextProvider. */
export function ConfirmHost() {
  const current = useSyncExternalStore(
    subscribe,
    () => queue[0],
    () => undefined,
  );
  useEffect(() => {
    hosts += 1;
    return () => {
      hosts -= 1;
      if (hosts === 0) {
        for (const p of queue) p.resolve(false);
        setQueue([]);
      }
    };
  }, []);
  if (!current) return null;
  const settle = (ok: boolean) => {
    current.resolve(ok);
    setQueue(queue.filter((p) => p.id !== current.id));
  };
  return (
    <ConfirmDialog
      key={current.id}
      open
      {...current.options}
      onConfirm={() => settle(true)}
      onCancel={() => settle(false)}
    />
  );
}
