import { FormDialog, type FormField, useApi, useQuery, useTranslation } from '@/core';
import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useMemo } from 'react';
import { groupApi, KEYS, userApi } from '../api';
import { errorText, type RecordDialogProps } from './shared';

interface GroupValues extends Record<string, unknown> {
  name: string;
  members: string[];
}

/** 新建用户组 / 更新用户组: a name and members picked from all users (type to filter). */
export function UserGroupFormDialog({
  open,
  id,
  onClose,
  onSaved,
}: RecordDialogProps) {
  const { t } = useTranslation('identity');
  const api = useApi();
  const groups = useMemo(() => groupApi(api), [api]);
  const users = useMemo(() => userApi(api), [api]);
  const editing = id !== undefined;

  const record = useQuery({ queryKey: KEYS.group(id ?? ''), queryFn: () => groups.get(id ?? ''), enabled: open && editing, gcTime: 0 });
  const people = useQuery({ queryKey: KEYS.userOptions, queryFn: users.options, enabled: open });

  const initialValues: GroupValues = useMemo(
    () =>
      editing && record.data
        ? { name: record.data.name, members: (record.data.members ?? []).map((m) => m.id) }
        : { name: '', members: [] },
    [editing, record.data],
  );

  const fields: FormField<GroupValues>[] = [
    { name: 'name', label: t('group.fields.name'), required: true, requiredMessage: t('group.validation.name'), maxLength: 64 },
    {
      name: 'members',
      label: t('group.fields.members'),
      type: 'multiselect',
      searchable: true,
      options: (people.data ?? []).map((u) => ({ value: u.id, label: t('group.memberOption', { nickname: u.nickname, username: u.username }) })),
    },
  ];

  const error = record.error ?? people.error;
  return (
    <FormDialog<GroupValues>
      open={open}
      onClose={onClose}
      title={t(editing ? 'group.editTitle' : 'group.newTitle')}
      fields={fields}
      initialValues={initialValues}
      loading={editing && record.isPending}
      footer={
        error ? (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{errorText(error)}</MessageBarBody>
          </MessageBar>
        ) : undefined
      }
      onSubmit={async (v) => {
        const body = { name: v.name.trim(), members: v.members };
        if (editing) await groups.update(id, body);
        else await groups.create(body);
        await onSaved();
      }}
    />
  );
}
