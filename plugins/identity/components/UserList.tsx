import { formatDateTime, PageContainer, ServerTable, StatusBadge, useConfirm, useEndpoints, useCan } from '@/core';
import { useRecordDialog, useSession, useTableActions, useTranslation } from '@/core';
import { Switch } from '@fluentui/react-components';
import { KeyResetRegular } from '@fluentui/react-icons/svg/key-reset';
import { LockClosedKeyRegular } from '@fluentui/react-icons/svg/lock-closed-key';
import { useState } from 'react';
import { KEYS, type UserRow, userApi } from '../api';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { UserFormDialog } from './UserFormDialog';

export function UserList() {
  const { t } = useTranslation('identity');
  const users = useEndpoints(userApi);
  const table = useTableActions(KEYS.users);
  const dialog = useRecordDialog();
  const confirm = useConfirm();
  const myId = useSession((s) => s.user?.id);
  const canToggle = useCan('user-enable-disable');
  const [passwordFor, setPasswordFor] = useState<string[] | null>(null);
  const detail = (u: UserRow) => `/user/${encodeURIComponent(u.id)}`;
  const totp = (u: UserRow) => u.totpSecret === '1';

  const toggleStatus = async (u: UserRow, enable: boolean) => {
    const ask = { title: t('user.disable.title', { name: u.nickname }), message: t('user.disable.content'), confirmText: t('user.disable.ok') };
    if (!enable && !(await confirm({ ...ask, danger: true }))) return;
    await table.run(() => users.setStatus(u.id, enable ? 'enabled' : 'disabled'), t('user.statusChanged'));
  };
  const status = (u: UserRow) => {
    const enabled = u.status !== 'disabled';
    const label = t(enabled ? 'user.status.enabled' : 'user.status.disabled');
    // Nobody switches their own account off; the server refuses it too.
    if (!canToggle || u.id === myId) return <StatusBadge tone={enabled ? 'success' : 'error'}>{label}</StatusBadge>;
    const name = t('user.status.toggle', { name: u.nickname });
    return <Switch checked={enabled} label={label} aria-label={name} onChange={(_, d) => void toggleStatus(u, d.checked)} />;
  };

  return (
    <PageContainer>
      <ServerTable<UserRow>
        tableKey="user"
        title={t('user.title')}
        queryKey={KEYS.users}
        fetchPage={users.page}
        getRowId={(u) => u.id}
        rowLabel={(u) => t('common.select', { name: u.nickname })}
        searchFields={[
          { name: 'nickname', label: t('user.fields.nickname') },
          { name: 'username', label: t('user.fields.username') },
          { name: 'mail', label: t('user.fields.mail') },
          { name: 'online', label: t('user.fields.online'), type: 'radio',
            options: [{ value: 'true', label: t('user.online.true') }, { value: 'false', label: t('user.online.false') }] },
        ]}
        columns={[
          { key: 'nickname', header: t('user.fields.nickname'), sortField: 'nickname', hideable: false, render: (u) => u.nickname,
            link: { to: detail, menu: 'user-detail' } },
          { key: 'username', header: t('user.fields.username'), sortField: 'username', render: (u) => u.username },
          { key: 'mail', header: t('user.fields.mail'), render: (u) => u.mail },
          { key: 'type', header: t('user.fields.type'), render: (u) => t(u.type === 'admin' ? 'user.type.admin' : 'user.type.user') },
          { key: 'status', header: t('user.fields.status'), render: status },
          { key: 'online', header: t('user.fields.online'), sortField: 'online', tone: (u) => (u.online ? 'success' : 'default'),
            render: (u) => t(u.online ? 'user.online.true' : 'user.online.false') },
          { key: 'totp', header: t('user.fields.totp'), tone: (u) => (totp(u) ? 'success' : 'default'),
            render: (u) => t(totp(u) ? 'user.totp.on' : 'user.totp.off') },
          { key: 'created', header: t('common.created'), sortField: 'created', render: (u) => formatDateTime(u.created) },
        ]}
        add={{ menu: 'user-add', onClick: dialog.openNew }}
        rowActions={(u) => [
          { key: 'edit', label: t('common.edit'), menu: 'user-edit', onClick: () => dialog.openEdit(u.id) },
          { key: 'detail', label: t('common.detail'), menu: 'user-detail', overflow: true, href: `${detail(u)}?activeKey=info` },
        ]}
        // Nor does anyone delete their own account (the server refuses it): shown, not offered, as the switch.
        remove={{ menu: 'user-del', run: users.remove, batch: (rows) => t('user.batchDelete.title', { count: rows.length }), disabled: (u) => u.id === myId }}
        batchActions={[
          {
            key: 'change-password',
            label: t('user.changePassword.action'),
            icon: <LockClosedKeyRegular />,
            menu: 'user-change-password',
            onClick: (ids) => setPasswordFor(ids.map(String)),
          },
          {
            key: 'reset-totp',
            label: t('user.resetTotp.action'),
            icon: <KeyResetRegular />,
            menu: 'user-reset-totp',
            confirm: { title: t('user.resetTotp.title'), message: t('user.resetTotp.content') },
            onClick: (ids) => table.run(() => users.resetTotp(ids), t('user.resetTotp.done')),
          },
        ]}
      />
      <UserFormDialog dialog={dialog} onSaved={() => table.done(t('common.success'))} />
      <ChangePasswordDialog
        ids={passwordFor}
        onClose={() => setPasswordFor(null)}
        onSubmit={async (password) => {
          await users.changePassword(passwordFor ?? [], password);
          await table.done(t('user.changePassword.done'));
        }}
      />
    </PageContainer>
  );
}
