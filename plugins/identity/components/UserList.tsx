import {
  AddButton,
  type BatchAction,
  formatDateTime,
  PageContainer,
  type SearchField,
  ServerTable,
  type ServerTableColumn,
  StatusBadge,
  useApi,
  useBus,
  useConfirm,
  useConfirmDelete,
  useCan,
  useReloadTable,
  RowActions,
  useSession,
  useTranslation,
} from '@/core';
import { Switch } from '@fluentui/react-components';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import { KeyResetRegular } from '@fluentui/react-icons/svg/key-reset';
import { LockClosedKeyRegular } from '@fluentui/react-icons/svg/lock-closed-key';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { KEYS, type UserRow, userApi } from '../api';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { type EditDialog, settled } from './shared';
import { UserFormDialog } from './UserFormDialog';

export function UserList() {
  const { t } = useTranslation('identity');
  const api = useApi();
  const users = useMemo(() => userApi(api), [api]);
  const bus = useBus();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const confirmDelete = useConfirmDelete();
  const reload = useReloadTable(KEYS.users);
  const myId = useSession((s) => s.user?.id);
  const canDetail = useCan('user-detail');
  const canToggle = useCan('user-enable-disable');
  const canDelete = useCan('user-del');
  const canChangePassword = useCan('user-change-password');
  const canResetTotp = useCan('user-reset-totp');
  const [dialog, setDialog] = useState<EditDialog>(null);
  const [passwordFor, setPasswordFor] = useState<string[] | null>(null);

  const done = (message: string) => bus.emit('notify', { intent: 'success', message });

  const remove = async (ids: readonly (string | number)[]) => {
    if (await settled(() => users.remove(ids))) {
      done(t('common.deleted'));
      await reload();
    }
  };

  const toggleStatus = async (row: UserRow, enable: boolean) => {
    if (!enable) {
      const ok = await confirm({
        title: t('user.disable.title', { name: row.nickname }),
        message: t('user.disable.content'),
        confirmText: t('user.disable.ok'),
        danger: true,
      });
      if (!ok) return;
    }
    if (await settled(() => users.setStatus(row.id, enable ? 'enabled' : 'disabled'))) {
      done(t('user.statusChanged'));
      await reload();
    }
  };

  const searchFields: SearchField[] = [
    { name: 'nickname', label: t('user.fields.nickname') },
    { name: 'username', label: t('user.fields.username') },
    { name: 'mail', label: t('user.fields.mail') },
    {
      name: 'online',
      label: t('user.fields.online'),
      type: 'radio',
      options: [
        { value: 'true', label: t('user.online.true') },
        { value: 'false', label: t('user.online.false') },
      ],
    },
  ];

  const columns: ServerTableColumn<UserRow>[] = [
    {
      key: 'nickname',
      header: t('user.fields.nickname'),
      sortField: 'nickname',
      hideable: false,
      render: (u) => (canDetail ? <Link to={`/user/${encodeURIComponent(u.id)}`}>{u.nickname}</Link> : u.nickname),
    },
    { key: 'username', header: t('user.fields.username'), sortField: 'username', render: (u) => u.username },
    { key: 'mail', header: t('user.fields.mail'), render: (u) => u.mail },
    { key: 'type', header: t('user.fields.type'), render: (u) => t(u.type === 'admin' ? 'user.type.admin' : 'user.type.user') },
    {
      key: 'status',
      header: t('user.fields.status'),
      render: (u) => {
        const enabled = u.status !== 'disabled';
        const label = t(enabled ? 'user.status.enabled' : 'user.status.disabled');
        // Nobody switches their own account off; the server refuses it too.
        if (!canToggle || u.id === myId) return <StatusBadge tone={enabled ? 'success' : 'error'}>{label}</StatusBadge>;
        return (
          <Switch
            checked={enabled}
            label={label}
            aria-label={t('user.status.toggle', { name: u.nickname })}
            onChange={(_, data) => void toggleStatus(u, data.checked)}
          />
        );
      },
    },
    {
      key: 'online',
      header: t('user.fields.online'),
      sortField: 'online',
      render: (u) => (
        <StatusBadge tone={u.online ? 'success' : 'default'}>{t(u.online ? 'user.online.true' : 'user.online.false')}</StatusBadge>
      ),
    },
    {
      key: 'totp',
      header: t('user.fields.totp'),
      render: (u) => (
        <StatusBadge tone={u.totpSecret === '1' ? 'success' : 'default'}>
          {t(u.totpSecret === '1' ? 'user.totp.on' : 'user.totp.off')}
        </StatusBadge>
      ),
    },
    { key: 'created', header: t('common.created'), sortField: 'created', render: (u) => formatDateTime(u.created) },
  ];

  const batchActions: BatchAction<UserRow>[] = [];
  if (canChangePassword) {
    batchActions.push({
      key: 'change-password',
      label: t('user.changePassword.action'),
      icon: <LockClosedKeyRegular />,
      onClick: (ids) => setPasswordFor(ids.map(String)),
    });
  }
  if (canResetTotp) {
    batchActions.push({
      key: 'reset-totp',
      label: t('user.resetTotp.action'),
      icon: <KeyResetRegular />,
      onClick: async (ids) => {
        const ok = await confirm({ title: t('user.resetTotp.title'), message: t('user.resetTotp.content') });
        if (ok && (await settled(() => users.resetTotp(ids)))) {
          done(t('user.resetTotp.done'));
          await reload();
        }
      },
    });
  }
  if (canDelete) {
    batchActions.push({
      key: 'delete',
      label: t('common.del'),
      icon: <DeleteRegular />,
      danger: true,
      onClick: async (ids) => {
        if (await confirmDelete({ title: t('user.batchDelete.title', { count: ids.length }) })) await remove(ids);
      },
    });
  }

  return (
    <PageContainer>
      <ServerTable<UserRow>
        tableKey="user"
        title={t('user.title')}
        queryKey={KEYS.users}
        fetchPage={users.page}
        getRowId={(u) => u.id}
        rowLabel={(u) => t('common.select', { name: u.nickname })}
        columns={columns}
        searchFields={searchFields}
        batchActions={batchActions}
        toolbar={<AddButton menu="user-add" onClick={() => setDialog({ mode: 'new' })} />}
        rowActions={(u) => (
          <RowActions
            actions={[
              { key: 'edit', label: t('common.edit'), menu: 'user-edit', onClick: () => setDialog({ mode: 'edit', id: u.id }) },
              { key: 'del', label: t('common.del'), menu: 'user-del', danger: true, confirm: true, onClick: () => remove([u.id]) },
              {
                key: 'detail',
                label: t('common.detail'),
                menu: 'user-detail',
                overflow: true,
                onClick: () => navigate(`/user/${encodeURIComponent(u.id)}?activeKey=info`),
              },
            ]}
          />
        )}
      />
      <UserFormDialog
        open={dialog !== null}
        id={dialog?.mode === 'edit' ? dialog.id : undefined}
        onClose={() => setDialog(null)}
        onSaved={async () => {
          done(t('common.success'));
          await reload();
        }}
      />
      <ChangePasswordDialog
        ids={passwordFor}
        onClose={() => setPasswordFor(null)}
        onSubmit={async (password) => {
          if (!passwordFor) return;
          await users.changePassword(passwordFor, password);
          done(t('user.changePassword.done'));
        }}
      />
    </PageContainer>
  );
}
