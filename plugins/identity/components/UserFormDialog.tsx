import { FormDialog, type FormField, useApi, useQuery, useTranslation } from '@/core';
import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useMemo } from 'react';
import { KEYS, type UserBody, type UserType, roleApi, userApi } from '../api';
import { errorText, type RecordDialogProps } from './shared';

interface UserValues extends Record<string, unknown> {
  username: string;
  nickname: string;
  type: UserType | '';
  roles: string[];
  mail: string;
  password: string;
}

const EMPTY: UserValues = { username: '', nickname: '', type: '', roles: [], mail: '', password: '' };

/** 新建用户 / 更新用户. Server refusals (a taken account, roles beyond the caller's own keys) show in the dialog. */
export function UserFormDialog({
  open,
  id,
  onClose,
  onSaved,
}: RecordDialogProps) {
  const { t } = useTranslation('identity');
  const api = useApi();
  const users = useMemo(() => userApi(api), [api]);
  const roles = useMemo(() => roleApi(api), [api]);
  const editing = id !== undefined;

  const record = useQuery({
    queryKey: KEYS.user(id ?? ''),
    queryFn: () => users.get(id ?? ''),
    enabled: open && editing,
    gcTime: 0,
  });
  const roleList = useQuery({ queryKey: KEYS.roleOptions, queryFn: roles.all, enabled: open });

  const initialValues: UserValues = useMemo(() => {
    const u = record.data;
    if (!editing || !u) return EMPTY;
    return { username: u.username, nickname: u.nickname, type: u.type, roles: u.roles ?? [], mail: u.mail ?? '', password: '' };
  }, [editing, record.data]);

  const fields: FormField<UserValues>[] = [
    { name: 'username', label: t('user.fields.account'), required: true, maxLength: 64, autoComplete: 'off' },
    { name: 'nickname', label: t('user.fields.nick'), required: true, requiredMessage: t('user.validation.nickname'), maxLength: 64 },
    {
      name: 'type',
      label: t('user.fields.type'),
      type: 'radio',
      required: true,
      options: [
        { value: 'user', label: t('user.type.user') },
        { value: 'admin', label: t('user.type.admin') },
      ],
    },
    {
      name: 'roles',
      label: t('user.fields.roles'),
      type: 'multiselect',
      required: true,
      requiredMessage: t('user.validation.roles'),
      options: (roleList.data ?? []).map((r) => ({ value: r.id, label: r.name })),
      visible: (v) => v.type === 'admin',
    },
    { name: 'mail', label: t('user.fields.mail'), type: 'email', maxLength: 128, invalidMessage: t('user.validation.mail') },
    {
      name: 'password',
      label: t('user.fields.password'),
      type: 'password',
      required: true,
      maxLength: 100,
      autoComplete: 'new-password',
      visible: () => !editing,
    },
  ];

  return (
    <FormDialog<UserValues>
      open={open}
      onClose={onClose}
      title={t(editing ? 'user.editTitle' : 'user.newTitle')}
      fields={fields}
      initialValues={initialValues}
      loading={editing && record.isPending}
      footer={
        record.error ? (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{errorText(record.error)}</MessageBarBody>
          </MessageBar>
        ) : undefined
      }
      onSubmit={async (v) => {
        const type: UserType = v.type === 'admin' ? 'admin' : 'user';
        const body: UserBody = {
          username: v.username.trim(),
          nickname: v.nickname.trim(),
          type,
          mail: v.mail.trim(),
          roles: type === 'admin' ? v.roles : [],
        };
        if (editing) await users.update(id, body);
        else await users.create({ ...body, password: v.password });
        await onSaved();
      }}
    />
  );
}
