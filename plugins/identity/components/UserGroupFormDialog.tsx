import { FormDialog, type RecordDialog, useEndpoints, useTranslation } from '@/core';
import { groupApi, KEYS, type UserGroupRecord, userApi } from '../api';

/** 新建用户组 / 更新用户组: a name and members picked from all users (type to filter). */
export function UserGroupFormDialog({ dialog, onSaved }: { dialog: RecordDialog; onSaved: () => Promise<void> }) {
  const { t } = useTranslation('identity');
  const groups = useEndpoints(groupApi);
  const users = useEndpoints(userApi);
  const { id } = dialog;
  const people = async () =>
    (await users.options()).map((u) => ({ value: u.id, label: t('group.memberOption', { nickname: u.nickname, username: u.username }) }));

  return (
    <FormDialog<{ name: string; members: string[] }, UserGroupRecord>
      open={dialog.open}
      onClose={dialog.close}
      title={t(id === undefined ? 'group.newTitle' : 'group.editTitle')}
      initialValues={{ name: '', members: [] }}
      record={
        id === undefined
          ? undefined
          : { queryKey: KEYS.group(id), load: () => groups.get(id), toValues: (g) => ({ name: g.name, members: (g.members ?? []).map((m) => m.id) }) }
      }
      fields={[
        { name: 'name', label: t('group.fields.name'), required: true, requiredMessage: t('group.validation.name'), maxLength: 64 },
        { name: 'members', label: t('group.fields.members'), type: 'multiselect', searchable: true, remoteOptions: { queryKey: KEYS.userOptions, load: people } },
      ]}
      onSubmit={async (v) => {
        const body = { name: v.name.trim(), members: v.members };
        await (id === undefined ? groups.create(body) : groups.update(id, body));
        await onSaved();
      }}
    />
  );
}
