import { useTranslation } from '@/core';
import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input } from '@fluentui/react-components';
import { type FormEvent, useState } from 'react';

export interface TotpDialogProps {
  open: boolean;
  busy: boolean;
  /** The server's refusal of the last code (shown under the field). */
  error: string | null;
  onSubmit: (code: string) => void;
  onCancel: () => void;
}

/** The second step, as 1.3.9's prompt: 双因素认证 with one auto-focused code field; Enter submits. */
export function TotpDialog({ open, busy, error, onSubmit, onCancel }: TotpDialogProps) {
  const { t } = useTranslation('login');
  const [code, setCode] = useState('');
  const [empty, setEmpty] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = code.trim();
    if (value === '') {
      setEmpty(true);
      return;
    }
    onSubmit(value);
  };

  const message = empty ? t('totp.required') : (error ?? undefined);
  return (
    <Dialog
      open={open}
      modalType="modal"
      onOpenChange={(_, data) => {
        if (!data.open && !busy) onCancel();
      }}
    >
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{t('totp.title')}</DialogTitle>
            <DialogContent>
              <Field label={t('totp.label')} required validationMessage={message}>
                <Input
                  autoFocus
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  value={code}
                  onChange={(_, data) => {
                    setCode(data.value);
                    setEmpty(false);
                  }}
                />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" disabled={busy} onClick={onCancel}>
                {t('actions.cancel')}
              </Button>
              <Button type="submit" appearance="primary" disabled={busy}>
                {t('actions.ok')}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
