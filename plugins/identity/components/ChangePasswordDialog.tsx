import { FormDialog, type FormField, useTranslation } from '@/core';

interface PasswordValues extends Record<string, unknown> {
  password: string;
  confirm: string;
}

/** Sets one new password for the selected users (the server ends their sessions). */
export function ChangePasswordDialog({
  ids,
  onClose,
  onSubmit,
}: {
  ids: readonly string[] | null;
  onClose: () => void;
  onSubmit: (password: string) => Promise<void>;
}) {
  const { t } = useTranslation('identity');
  const fields: FormField<PasswordValues>[] = [
    { name: 'password', label: t('user.changePassword.password'), type: 'password', required: true, minLength: 8, maxLength: 100, autoComplete: 'new-password' },
    {
      name: 'confirm',
      label: t('user.changePassword.confirm'),
      type: 'password',
      required: true,
      autoComplete: 'new-password',
      validate: (value, values) => (value === values.password ? undefined : t('user.changePassword.mismatch')),
    },
  ];
  return (
    <FormDialog<PasswordValues>
      open={ids !== null}
      onClose={onClose}
      title={t('user.changePassword.action')}
      fields={fields}
      initialValues={{ password: '', confirm: '' }}
      onSubmit={(values) => onSubmit(values.password)}
    />
  );
}
