import { FormDialog, type RecordDialog, useEndpoints, useTranslation } from '@/core';
import { KEYS, roleApi, type UserType, userApi } from '../api';

const EMPTY = { username: '', nickname: '', type: '' as UserType | '', roles: [] as string[], mail: '', password: '' };

/** 新建用户 / 更新用户. Server refusals show in the dialog: a taken account on its field (the server names it), others (roles beyond the caller's own keys) at the top. */
export function UserFormDialog({ dialog, onSaved }: { dialog: RecordDialog; onSaved: () => Promise<void> }) {
  const { t } = useTranslation('identity');
  const users = useEndpoints(userApi);
  const roleChoices = useEndpoints(roleApi).options;
  const { id } = dialog;
  return (
    <FormDialog<typeof EMPTY>
      open={dialog.open}
      onClose={dialog.close}
      title={t(id === undefined ? 'user.newTitle' : 'user.editTitle')}
      initialValues={EMPTY}
      record={id === undefined ? undefined : { queryKey: KEYS.user(id), load: () => users.get(id) }}
      fields={[
        { name: 'username', label: t('user.fields.account'), required: true, maxLength: 64, autoComplete: 'off' },
        { name: 'nickname', label: t('user.fields.nick'), required: true, requiredMessage: t('user.validation.nickname'), maxLength: 64 },
        { name: 'type', label: t('user.fields.type'), type: 'radio', required: true,
          options: [{ value: 'user', label: t('user.type.user') }, { value: 'admin', label: t('user.type.admin') }] },
        {
          name: 'roles',
          label: t('user.fields.roles'),
          type: 'multiselect',
          required: true,
          requiredMessage: t('user.validation.roles'),
          remoteOptions: { queryKey: KEYS.roleOptions, load: roleChoices },
          visible: (v) => v.type === 'admin',
        },
        { name: 'mail', label: t('user.fields.mail'), type: 'email', maxLength: 128, invalidMessage: t('user.validation.mail') },
        { name: 'password', label: t('user.fields.password'), type: 'password', required: true, minLength: 8, maxLength: 100,
          autoComplete: 'new-password', visible: () => id === undefined },
      ]}
      onSubmit={async (v) => {
        const type: UserType = v.type === 'admin' ? 'admin' : 'user';
        const roles = type === 'admin' ? v.roles : [];
        const body = { username: v.username.trim(), nickname: v.nickname.trim(), type, mail: v.mail.trim(), roles };
        await (id === undefined ? users.create({ ...body, password: v.password }) : users.update(id, body));
        await onSaved();
      }}
    />
  );
}
