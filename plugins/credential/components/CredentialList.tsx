import { formatDateTime, PageContainer, ServerTable, useEndpoints, useRecordDialog, useTableActions, useTranslation } from '@/core';
import { type CredentialRow, credentialApi, KEYS } from '../api';
import { CredentialFormDialog } from './CredentialFormDialog';

/** 授权凭证: reusable accounts (a password or a private key) that assets log in with. */
export function CredentialList() {
  const { t } = useTranslation('credential');
  const credentials = useEndpoints(credentialApi);
  const table = useTableActions(KEYS.list);
  const dialog = useRecordDialog();
  const isKey = (c: CredentialRow) => c.type === 'private-key';

  return (
    <PageContainer>
      <ServerTable<CredentialRow>
        tableKey="credential"
        title={t('list.title')}
        queryKey={KEYS.list}
        fetchPage={credentials.page}
        getRowId={(c) => c.id}
        rowLabel={(c) => t('list.select', { name: c.name })}
        searchFields={[{ name: 'name', label: t('fields.name') }]}
        columns={[
          { key: 'name', header: t('fields.name'), sortField: 'name', hideable: false, render: (c) => c.name },
          {
            key: 'type',
            header: t('fields.type'),
            render: (c) => t(isKey(c) ? 'type.privateKey' : 'type.custom'),
            tone: (c) => (isKey(c) ? 'success' : 'info'),
          },
          { key: 'username', header: t('fields.username'), render: (c) => (c.username === '-' ? '' : c.username) },
          { key: 'owner', header: t('fields.owner'), render: (c) => c.ownerName },
          { key: 'created', header: t('fields.created'), sortField: 'created', render: (c) => formatDateTime(c.created) },
        ]}
        add={{ menu: 'credential-add', onClick: dialog.openNew }}
        rowActions={(c) => [{ key: 'edit', label: t('list.edit'), menu: 'credential-edit', onClick: () => dialog.openEdit(c.id) }]}
        remove={{ menu: 'credential-del', run: credentials.remove, batch: (rows) => t('list.batchDelete', { count: rows.length }) }}
      />
      <CredentialFormDialog dialog={dialog} onSaved={() => table.done(t('list.saved'))} />
    </PageContainer>
  );
}
