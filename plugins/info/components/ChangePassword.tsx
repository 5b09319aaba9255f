import { useAccountApi, useBus, useQueryClient, useSession, useTranslation } from '@/core';
import { Button, Field, Input } from '@fluentui/react-components';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ACCOUNT_NS, usePanelStyles } from './shared';

/** The server's limit for a new password (longer ones are refused with 您输入的密码过长). */
const MAX_PASSWORD_LENGTH = 100;
/** The server's shortest password (server/lib/password.ts MIN_PASSWORD_LENGTH). */
const MIN_PASSWORD_LENGTH = 8;

interface Values {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

/**
 * 修改密码: submit stays disabled until the two new passwords match. On success the server has ended every
 * token of the user, so the session is dropped here and the user goes to /login.
 */
export function ChangePassword() {
  const styles = usePanelStyles();
  const { t } = useTranslation(ACCOUNT_NS);
  const account = useAccountApi();
  const bus = useBus();
  const clearSession = useSession((state) => state.clear);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>({ oldPassword: '', newPassword: '', confirm: '' });
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);

  const set = (name: keyof Values) => (_: unknown, data: { value: string }) => setValues((v) => ({ ...v, [name]: data.value }));
  const tooLong = values.newPassword.length > MAX_PASSWORD_LENGTH;
  const mismatch = values.confirm !== '' && values.confirm !== values.newPassword;
  const matches = values.newPassword !== '' && values.newPassword === values.confirm;
  const oldError = touched && values.oldPassword === '' ? t('account.password.oldRequired') : undefined;
  // The server's rules (lib/password.ts), said before it refuses: at least eight characters, not only spaces.
  const tooShort = values.newPassword !== '' && [...values.newPassword].length < MIN_PASSWORD_LENGTH;
  const blank = values.newPassword !== '' && values.newPassword.trim() === '';
  const newError = tooLong
    ? t('account.password.newTooLong', { max: MAX_PASSWORD_LENGTH })
    : touched && values.newPassword === ''
      ? t('account.password.newRequired')
      : touched && blank
        ? t('account.password.newBlank')
        : touched && tooShort
          ? t('account.password.newTooShort', { min: MIN_PASSWORD_LENGTH })
          : undefined;
  const confirmError = mismatch
    ? t('account.password.mismatch')
    : touched && values.confirm === ''
      ? t('account.password.confirmRequired')
      : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (values.oldPassword === '' || !matches || tooLong || tooShort || blank || busy) return;
    setBusy(true);
    const ok = await account.changePassword({ oldPassword: values.oldPassword, newPassword: values.newPassword });
    if (!ok) {
      // The client has shown the server's reason (e.g. 您输入的原密码不正确).
      setBusy(false);
      return;
    }
    bus.emit('notify', { intent: 'success', message: t('account.password.success') });
    clearSession();
    queryClient.clear();
    navigate('/login');
  };

  return (
    <section aria-labelledby="account-password-heading">
      <h2 id="account-password-heading" className={styles.heading}>
        {t('account.password.heading')}
      </h2>
      <form className={styles.form} onSubmit={submit} noValidate>
        <Field label={t('account.password.old')} required validationMessage={oldError}>
          <Input
            type="password"
            autoComplete="current-password"
            placeholder={t('account.password.oldPlaceholder')}
            value={values.oldPassword}
            onChange={set('oldPassword')}
          />
        </Field>
        <Field label={t('account.password.new')} required validationMessage={newError}>
          <Input
            type="password"
            autoComplete="new-password"
            placeholder={t('account.password.newPlaceholder')}
            value={values.newPassword}
            onChange={set('newPassword')}
          />
        </Field>
        <Field label={t('account.password.confirm')} required validationMessage={confirmError}>
          <Input
            type="password"
            autoComplete="new-password"
            placeholder={t('account.password.confirmPlaceholder')}
            value={values.confirm}
            onChange={set('confirm')}
          />
        </Field>
        <div className={styles.actions}>
          <Button type="submit" appearance="primary" disabled={!matches || tooLong || busy}>
            {t('account.password.submit')}
          </Button>
        </div>
      </form>
    </section>
  );
}
