import { formatDateTime, PageContainer, ServerTable, useCan, useEndpoints, useRecordDialog, useTableActions, useTranslation } from '@/core';
import { groupApi, KEYS, type UserGroupRow } from '../api';
import { UserGroupFormDialog } from './UserGroupFormDialog';

export function UserGroupList() {
  const { t } = useTranslation('identity');
  const groups = useEndpoints(groupApi);
  const table = useTableActions(KEYS.groups);
  const dialog = useRecordDialog();
  const canOpen = useCan('user-group-detail');
  const detail = (g: UserGroupRow) => `/user-group/${encodeURIComponent(g.id)}`;

  return (
    <PageContainer>
      <ServerTable<UserGroupRow>
        tableKey="user-group"
        title={t('group.title')}
        queryKey={KEYS.groups}
        fetchPage={groups.page}
        getRowId={(g) => g.id}
        rowLabel={(g) => t('common.select', { name: g.name })}
        searchFields={[{ name: 'name', label: t('group.fields.name') }]}
        columns={[
          { key: 'name', header: t('group.fields.name'), sortField: 'name', hideable: false, render: (g) => g.name, link: { to: detail, menu: 'user-group-detail' } },
          { key: 'created', header: t('common.created'), sortField: 'created', render: (g) => formatDateTime(g.created) },
        ]}
        add={{ menu: 'user-group-add', onClick: dialog.openNew }}
        rowActions={(g) => [
          { key: 'edit', label: t('common.edit'), menu: 'user-group-edit', onClick: () => dialog.openEdit(g.id) },
          { key: 'detail', label: t('common.detail'), menu: 'user-group-detail', overflow: true, href: `${detail(g)}?activeKey=info` },
          // The detail page needs user-group-detail; its 授权的资产 tab needs user-group-authorised-asset.
          ...(canOpen
            ? [{ key: 'assets', label: t('grants.actions.assets'), menu: 'user-group-authorised-asset' as const, overflow: true, href: `${detail(g)}?activeKey=asset` }]
            : []),
        ]}
        remove={{ menu: 'user-group-del', run: groups.remove, batch: (rows) => t('group.batchDelete.title', { count: rows.length }) }}
      />
      <UserGroupFormDialog dialog={dialog} onSaved={() => table.done(t('common.success'))} />
    </PageContainer>
  );
}
