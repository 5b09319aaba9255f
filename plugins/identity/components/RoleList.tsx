import {
  Can,
  DangerButton,
  formatDateTime,
  PageContainer,
  type SearchField,
  ServerTable,
  type ServerTableColumn,
  useApi,
  useBus,
  useConfirmDelete,
  useHasMenu,
  useReloadTable,
  useTranslation,
} from '@/core';
import { Button } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { KEYS, type Role, roleApi } from '../api';
import { RoleFormDialog } from './RoleFormDialog';
import { settled, useSharedStyles } from './shared';

type Dialog = { mode: 'new' } | { mode: 'edit'; id: string } | null;

export function RoleList() {
  const { t } = useTranslation('identity');
  const styles = useSharedStyles();
  const api = useApi();
  const roles = useMemo(() => roleApi(api), [api]);
  const bus = useBus();
  const confirmDelete = useConfirmDelete();
  const reload = useReloadTable(KEYS.roles);
  const canDetail = useHasMenu('role-detail');
  const [dialog, setDialog] = useState<Dialog>(null);

  const typeLabel = (r: Role) => t(r.type === 'default' ? 'role.type.default' : 'role.type.new');

  const searchFields: SearchField[] = [
    { name: 'name', label: t('role.fields.name') },
    {
      name: 'type',
      label: t('role.fields.type'),
      type: 'radio',
      options: [
        { value: 'default', label: t('role.type.default') },
        { value: 'new', label: t('role.type.new') },
      ],
    },
  ];

  const columns: ServerTableColumn<Role>[] = [
    {
      key: 'name',
      header: t('role.fields.name'),
      hideable: false,
      render: (r) => (canDetail ? <Link to={`/role/${encodeURIComponent(r.id)}`}>{r.name}</Link> : r.name),
    },
    { key: 'type', header: t('role.fields.type'), sortField: 'type', render: typeLabel },
    { key: 'created', header: t('common.created'), sortField: 'created', render: (r) => formatDateTime(r.created) },
  ];

  return (
    <PageContainer>
      <ServerTable<Role>
        tableKey="role"
        title={t('role.title')}
        queryKey={KEYS.roles}
        fetchPage={roles.page}
        getRowId={(r) => r.id}
        columns={columns}
        searchFields={searchFields}
        toolbar={
          <Can menu="role-add">
            <Button appearance="primary" icon={<AddRegular />} onClick={() => setDialog({ mode: 'new' })}>
              {t('common.add')}
            </Button>
          </Can>
        }
        rowActions={(r) => (
          <div className={styles.actions}>
            <Can menu="role-detail">
              <Link to={`/role/${encodeURIComponent(r.id)}?activeKey=info`}>{t('common.detail')}</Link>
            </Can>
            <Can menu="role-edit">
              {/* Built-in roles are fixed: shown, not offered. */}
              <Button appearance="transparent" size="small" disabled={!r.modifiable} onClick={() => setDialog({ mode: 'edit', id: r.id })}>
                {t('common.edit')}
              </Button>
            </Can>
            <Can menu="role-del">
              <DangerButton
                size="small"
                disabled={!r.deletable}
                onClick={async () => {
                  if ((await confirmDelete()) && (await settled(() => roles.remove([r.id])))) {
                    bus.emit('notify', { intent: 'success', message: t('common.deleted') });
                    await reload();
                  }
                }}
              >
                {t('common.del')}
              </DangerButton>
            </Can>
          </div>
        )}
      />
      <RoleFormDialog
        open={dialog !== null}
        id={dialog?.mode === 'edit' ? dialog.id : undefined}
        onClose={() => setDialog(null)}
        onSaved={async () => {
          bus.emit('notify', { intent: 'success', message: t('common.success') });
          await reload();
        }}
      />
    </PageContainer>
  );
}
