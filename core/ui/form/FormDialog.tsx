import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  tokens,
  useFocusFinders,
} from '@fluentui/react-components';
import type { QueryKey } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { useQuery } from '../../query/hooks';
import { useUiT } from '../i18n';
import { FormFields } from './FormFields';
import type { FormItem, FormValues } from './types';
import { useFormState } from './useFormState';
import { flattenFields, isFieldVisible } from './validation';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  loading: { padding: tokens.spacingVerticalXXL },
});

/** The record an edit dialog starts from: fetched when the dialog opens (never from a stale cache). */
export interface FormRecord<Values extends FormValues, Rec> {
  queryKey: QueryKey;
  load: () => Promise<Rec>;
  /** Default: the record's value for each key of `initialValues`, the initial value where the record has none (null). */
  toValues?: (record: Rec) => Values;
}

/** The form's values taken from a record: each key of `initial`, from the record unless it holds nothing there. */
function valuesFrom<Values extends FormValues>(record: unknown, initial: Values): Values {
  const source = (typeof record === 'object' && record !== null ? record : {}) as Record<string, unknown>;
  const out: FormValues = { ...initial };
  for (const key of Object.keys(initial)) if (source[key] !== undefined && source[key] !== null) out[key] = source[key];
  return out as Values;
}

export interface FormDialogProps<Values extends FormValues, Rec = unknown> {
  open: boolean;
  /** Called on Cancel, on the close (Escape) and after a successful submit. Clicking the backdrop does nothing. */
  onClose: () => void;
  title: ReactNode;
  /** Fields and sections (`{ section, visible, fields }`). */
  fields: readonly FormItem<Values>[];
  /** Read when the dialog opens (the form is rebuilt on every open, so Cancel resets it). */
  initialValues: Values;
  /** An edit: the form starts from this record once loaded; a failed load is shown in the dialog. */
  record?: FormRecord<Values, Rec>;
  /**
   * Receives the values of the visible fields (plus any extra keys of `initialValues`, e.g. a hidden `id`).
   * Resolve to close; reject with an `Error` to keep the dialog open and show `error.message` at the top — or on the
   * field a server refusal names (an `ApiError` whose data is `{ field }`, a field the form shows).
   */
  onSubmit: (values: Values) => Promise<void> | void;
  /** While true the fields are replaced by a spinner (e.g. something else the form needs is loading). */
  loading?: boolean;
  /** A failure to show at the top of the dialog (e.g. data the form needs could not load). */
  error?: unknown;
  okText?: string;
  cancelText?: string;
  /** Dialog width in px (default 520, like an antd Modal). */
  width?: number;
  /** Extra content under the fields. */
  footer?: ReactNode;
}

/** A modal form: declarative fields, validation on blur and on submit, busy OK button, server error inline. */
export function FormDialog<Values extends FormValues, Rec = unknown>(props: FormDialogProps<Values, Rec>) {
  const { open, onClose, width = 520 } = props;
  return (
    <Dialog
      open={open}
      modalType="modal"
      onOpenChange={(_, data) => {
        if (!data.open && data.type !== 'backdropClick') onClose();
      }}
    >
      <DialogSurface style={{ maxWidth: `min(${width}px, calc(100vw - 32px))` }}>
        {open ? <FormDialogContent {...props} /> : null}
      </DialogSurface>
    </Dialog>
  );
}

/** Mounted while open: the record is fetched on every open and dropped on close (`gcTime: 0`), never shown stale. */
function FormDialogContent<Values extends FormValues, Rec>(props: FormDialogProps<Values, Rec>) {
  const { record } = props;
  const loaded = useQuery({
    queryKey: record?.queryKey ?? ['core', 'no-record'],
    queryFn: () => (record ? record.load() : Promise.resolve(null)),
    enabled: record !== undefined,
    gcTime: 0,
  });
  const loading = props.loading || (record !== undefined && loaded.isPending);
  const data = loaded.data;
  const initialValues =
    record && data ? (record.toValues ? record.toValues(data) : valuesFrom(data, props.initialValues)) : props.initialValues;
  const bodyRef = useRef<HTMLDivElement>(null);
  const wasLoading = useRef(loading);
  const { findFirstFocusable } = useFocusFinders();
  // A dialog that opened while loading put the focus on its loading body, which is gone once loaded: the focus would
  // fall to the page behind (Escape no longer closes, a screen reader leaves the dialog). It goes to the first field.
  useEffect(() => {
    const body = bodyRef.current;
    if (wasLoading.current && !loading && body && !body.contains(body.ownerDocument.activeElement)) findFirstFocusable(body)?.focus();
    wasLoading.current = loading;
  }, [loading, findFirstFocusable]);
  // Keyed on `loading`: an edit dialog opens before its record arrives, and the form must start from the record.
  return (
    <FormDialogBody
      key={loading ? 'loading' : 'ready'}
      bodyRef={bodyRef}
      {...props}
      loading={loading}
      initialValues={initialValues}
      error={props.error ?? (record ? loaded.error : undefined)}
    />
  );
}

/**
 * The field a server refusal is about: a business answer whose data names it (`{code: -1, message, data: {field}}`,
 * e.g. a username already taken), when the form shows that field.
 */
function refusedField<Values extends FormValues>(error: unknown, fields: readonly FormItem<Values>[], values: Values) {
  if (!(error instanceof ApiError) || error.kind !== 'business') return undefined;
  const data = error.data;
  const name = typeof data === 'object' && data !== null ? (data as { field?: unknown }).field : undefined;
  if (typeof name !== 'string') return undefined;
  return flattenFields(fields).find((f) => f.name === name && isFieldVisible(f, values))?.name;
}

function messageOf(error: unknown): string | undefined {
  if (!error) return undefined;
  return error instanceof Error ? error.message : String(error);
}

function FormDialogBody<Values extends FormValues, Rec>({
  onClose,
  title,
  fields,
  initialValues,
  onSubmit,
  loading,
  okText,
  cancelText,
  footer,
  error,
  bodyRef,
}: FormDialogProps<Values, Rec> & { bodyRef: RefObject<HTMLDivElement | null> }) {
  const styles = useStyles();
  const t = useUiT();
  const formId = useId();
  const form = useFormState(fields, initialValues);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string>();
  // Bumped by each rejected submit: the effect below then gives the focus back.
  const [failures, setFailures] = useState(0);
  const bannerRef = useRef<HTMLDivElement>(null);
  const okRef = useRef<HTMLButtonElement>(null);
  // False once the dialog closed (or the form was rebuilt): a late answer must not close a dialog opened since.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const { findFirstFocusable } = useFocusFinders();
  const loadError = messageOf(error);

  // After a rejection the focus (held by the busy OK) goes to what needs the user: the first invalid field, else
  // the message, else the first field — not left on OK, the button that just failed. Only then, never on open
  // (focusing on open upsets Tabster's modal stack for a dialog over a drawer, the file manager's prompts).
  useEffect(() => {
    if (failures === 0) return;
    const body = bodyRef.current;
    const invalid = body?.querySelector<HTMLElement>('[aria-invalid="true"]:not(:disabled)');
    const target = invalid ?? bannerRef.current ?? (body ? findFirstFocusable(body) : undefined);
    target?.focus();
  }, [failures, bodyRef, findFirstFocusable]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || loading || loadError) return;
    // Every attempt starts afresh: a message from the server about earlier input must not stand beside the
    // field errors of this one. (Editing keeps it: it says what to fix until the next attempt.)
    setServerError(undefined);
    if (!form.validate()) return;
    setBusy(true);
    // The fields go disabled while busy, and a disabled element drops the focus to the document, where Escape no
    // longer reaches the dialog: it waits on OK instead, which stays focusable (aria-disabled) and says it is busy.
    okRef.current?.focus();
    try {
      await onSubmit(form.visibleValues());
      if (!mounted.current) return;
      setBusy(false);
      onClose();
    } catch (err) {
      if (!mounted.current) return;
      setBusy(false);
      // A refusal about one field is said on that field (and the focus goes there), like the form's own messages.
      const field = refusedField(err, fields, form.values);
      if (field) form.setError(field, messageOf(err) ?? '');
      else setServerError(messageOf(err));
      setFailures((n) => n + 1);
    }
  };

  return (
    <DialogBody ref={bodyRef}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {loadError ? (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{loadError}</MessageBarBody>
          </MessageBar>
        ) : loading ? (
          <Spinner className={styles.loading} label={t('ui.loading')} />
        ) : (
          <form id={formId} className={styles.form} onSubmit={submit} noValidate>
            {serverError ? (
              // Focusable from script only (tabIndex -1): where the focus goes after a rejection with no invalid field.
              <MessageBar intent="error" role="alert" ref={bannerRef} tabIndex={-1}>
                <MessageBarBody>{serverError}</MessageBarBody>
              </MessageBar>
            ) : null}
            <FormFields form={form} fields={fields} disabled={busy} />
            {footer}
            {/* Enter in a text input submits. */}
            <button type="submit" hidden aria-hidden tabIndex={-1} />
          </form>
        )}
      </DialogContent>
      <DialogActions>
        {/* Enabled while busy: a call that does not answer must not trap the user in a modal (the API client's
            timeout ends it, but only after a while). Closing does not undo the call: its caller still reports the
            outcome (a saved record toasts and reloads the list), and a late answer leaves this closed dialog alone. */}
        <Button appearance="secondary" onClick={onClose}>
          {cancelText ?? t('ui.cancel')}
        </Button>
        <Button
          ref={okRef}
          appearance="primary"
          type="submit"
          form={formId}
          disabled={loading || loadError !== undefined}
          disabledFocusable={busy}
          icon={busy ? <Spinner size="tiny" /> : undefined}
          aria-busy={busy || undefined}
        >
          {okText ?? t('ui.ok')}
        </Button>
      </DialogActions>
    </DialogBody>
  );
}
