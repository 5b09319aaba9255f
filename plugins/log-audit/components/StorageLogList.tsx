import { DangerButton, formatDateTime, PageContainer, ServerTable, type StatusTone, useCan, useConfirm, useEndpoints, useTableActions, useTranslation } from '@/core';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import { KEYS, STORAGE_ACTIONS, type StorageAction, type StorageLog, storageLogApi } from '../api';

const TONE: Record<StorageAction, StatusTone> = {
  upload: 'processing',
  download: 'info',
  mkdir: 'default',
  rm: 'error',
  rename: 'warning',
  edit: 'warning',
};
const isAction = (a: string): a is StorageAction => (STORAGE_ACTIONS as readonly string[]).includes(a);

/** 文件日志: what files moved through sessions (upload, download, mkdir, delete, rename, edit); delete and clear. */
export function StorageLogList() {
  const { t } = useTranslation('log-audit');
  const logs = useEndpoints(storageLogApi);
  const table = useTableActions(KEYS.storageLogs);
  const confirm = useConfirm();
  const canClear = useCan('storage-log-clear');
  const actionLabel = (a: string) => (isAction(a) ? t(`storage.action.${a}`) : a);

  const clear = async () => {
    const ok = await confirm({ title: t('storage.clear.title'), message: t('storage.clear.message'), danger: true });
    if (ok) await table.run(logs.clear, t('storage.clear.done'));
  };

  return (
    <PageContainer>
      <ServerTable<StorageLog>
        tableKey="storage-log"
        title={t('storage.title')}
        queryKey={KEYS.storageLogs}
        fetchPage={logs.page}
        getRowId={(l) => l.id}
        rowLabel={(l) => t('storage.select', { name: l.fileName })}
        searchFields={[
          { name: 'assetId', label: t('storage.fields.asset'), type: 'select', remoteOptions: { queryKey: KEYS.assets, load: logs.assetOptions } },
          { name: 'userId', label: t('storage.fields.user'), type: 'select', remoteOptions: { queryKey: KEYS.users, load: logs.userOptions } },
          { name: 'action', label: t('storage.fields.action'), type: 'select', options: STORAGE_ACTIONS.map((a) => ({ value: a, label: actionLabel(a) })) },
        ]}
        columns={[
          { key: 'asset', header: t('storage.fields.asset'), render: (l) => l.assetName || l.assetId },
          { key: 'user', header: t('storage.fields.user'), render: (l) => l.userName || l.userId },
          { key: 'action', header: t('storage.fields.action'), tone: (l) => (isAction(l.action) ? TONE[l.action] : 'default'), render: (l) => actionLabel(l.action) },
          { key: 'fileName', header: t('storage.fields.fileName'), hideable: false, render: (l) => l.fileName },
          { key: 'created', header: t('storage.fields.created'), render: (l) => formatDateTime(l.created) },
        ]}
        remove={{ menu: 'storage-log-del', run: logs.remove }}
        batchActions={[
          {
            key: 'delete',
            label: t('storage.delete.action'),
            icon: <DeleteRegular />,
            danger: true,
            menu: 'storage-log-del',
            confirm: { title: t('storage.delete.title'), message: t('storage.delete.message') },
            onClick: (ids) => table.run(() => logs.remove(ids), t('storage.delete.done')),
          },
        ]}
        toolbar={({ total }) =>
          canClear ? (
            <DangerButton appearance="primary" disabled={total === 0} onClick={() => void clear()}>
              {t('storage.clear.action')}
            </DangerButton>
          ) : null
        }
      />
    </PageContainer>
  );
}
