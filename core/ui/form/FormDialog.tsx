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
} from '@fluentui/react-components';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useUiT } from '../i18n';
import { FormFields } from './FormFields';
import type { FormField, FormValues } from './types';
import { useFormState } from './useFormState';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  loading: { padding: tokens.spacingVerticalXXL },
});

export interface FormDialogProps<Values extends FormValues> {
  open: boolean;
  /** Called on Cancel, on the close (Escape) and after a successful submit. Clicking the backdrop does nothing. */
  onClose: () => void;
  title: ReactNode;
  fields: readonly FormField<Values>[];
  /** Read when the dialog opens (the form is rebuilt on every open, so Cancel resets it). */
  initialValues: Values;
  /**
   * Receives the values of the visible fields (plus any extra keys of `initialValues`, e.g. a hidden `id`).
   * Resolve to close; reject with an `Error` to keep the dialog open and show `error.message` at the top.
   */
  onSubmit: (values: Values) => Promise<void> | void;
  /** While true the fields are replaced by a spinner (e.g. the record of an edit dialog is loading). */
  loading?: boolean;
  okText?: string;
  cancelText?: string;
  /** Dialog width in px (default 520, like an antd Modal). */
  width?: number;
  /** Extra content under the fields. */
  footer?: ReactNode;
}

/** A modal form: declarative fields, validation on blur and on submit, busy OK button, server error inline. */
export function FormDialog<Values extends FormValues>(props: FormDialogProps<Values>) {
  const { open, onClose, title, width = 520 } = props;
  return (
    <Dialog
      open={open}
      modalType="modal"
      onOpenChange={(_, data) => {
        if (!data.open && data.type !== 'backdropClick') onClose();
      }}
    >
      <DialogSurface style={{ maxWidth: `min(${width}px, calc(100vw - 32px))` }}>
        {/* Keyed on `loading`: an edit dialog opens before its record arrives, and the form must start from the record. */}
        {open ? <FormDialogBody key={props.loading ? 'loading' : 'ready'} {...props} title={title} /> : null}
      </DialogSurface>
    </Dialog>
  );
}

function FormDialogBody<Values extends FormValues>({
  onClose,
  title,
  fields,
  initialValues,
  onSubmit,
  loading,
  okText,
  cancelText,
  footer,
}: FormDialogProps<Values>) {
  const styles = useStyles();
  const t = useUiT();
  const formId = useId();
  const form = useFormState(fields, initialValues);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string>();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || loading) return;
    if (!form.validate()) return;
    setBusy(true);
    setServerError(undefined);
    try {
      await onSubmit(form.visibleValues());
      setBusy(false);
      onClose();
    } catch (err) {
      setBusy(false);
      setServerError(err instanceof Error ? err.message : String(err));
    }
  };

  return (
    <DialogBody>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {loading ? (
          <Spinner className={styles.loading} label={t('ui.loading')} />
        ) : (
          <form id={formId} className={styles.form} onSubmit={submit} noValidate>
            {serverError ? (
              <MessageBar intent="error" role="alert">
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
        <Button appearance="secondary" disabled={busy} onClick={onClose}>
          {cancelText ?? t('ui.cancel')}
        </Button>
        <Button
          appearance="primary"
          type="submit"
          form={formId}
          disabled={busy || loading}
          icon={busy ? <Spinner size="tiny" /> : undefined}
          aria-busy={busy || undefined}
        >
          {okText ?? t('ui.ok')}
        </Button>
      </DialogActions>
    </DialogBody>
  );
}
