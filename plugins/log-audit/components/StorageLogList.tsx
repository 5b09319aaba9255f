import {
  formatDateTime,
  PageContainer,
  ServerTable,
  type ServerTableHandle,
  type StatusTone,
  useCan,
  useConfirm,
  useEndpoints,
  useTableActions,
  useTranslation,
} from '@/core';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import { useRef } from 'react';
import { KEYS, STORAGE_ACTIONS, type StorageAction, type StorageLog, storageLogApi } from '../api';
import { ClearAllMenu } from './ClearAllMenu';
import { RecordList } from './RecordList';

const TONE: Record<StorageAction, StatusTone> = {
  upload: 'processing',
  download: 'info',
  mkdir: 'default',
  rm: 'error',
  rename: 'warning',
  edit: 'warning',
};
const isAction = (a: string): a is StorageAction => (STORAGE_ACTIONS as readonly string[]).includes(a);

/**
 * 文件日志: what files moved through sessions (upload, download, mkdir, delete, rename, edit); delete and clear, each
 * saying what it deletes and each written to the operation log.
 */
export function StorageLogList() {
  const { t } = useTranslation('log-audit');
  const logs = useEndpoints(storageLogApi);
  const table = useTableActions(KEYS.storageLogs);
  const confirm = useConfirm();
  const canClear = useCan('storage-log-clear');
  const ref = useRef<ServerTableHandle>(null);
  const actionLabel = (a: string) => (isAction(a) ? t(`storage.action.${a}`) : a);
  const named = (l: StorageLog) =>
    t('storage.named', { user: l.userName || l.userId, asset: l.assetName || l.assetId, action: actionLabel(l.action), file: l.fileName, time: formatDateTime(l.created) });

  // 清空 deletes the whole log, whatever the search shows: the count is the list's total, or the whole log's under a search.
  const clear = async (shown: number) => {
    const searching = Object.keys(ref.current?.searchQuery() ?? {}).length > 0;
    const count = searching ? await logs.total() : shown;
    const ok = await confirm({ title: t('storage.clear.title'), message: t('storage.clear.message', { count }), confirmText: t('storage.clear.confirm'), danger: true });
    if (ok) await table.run(logs.clear, t('storage.clear.done'));
  };

  return (
    <PageContainer>
      <ServerTable<StorageLog>
        ref={ref}
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
        rowActions={(l) => [
          {
            key: 'delete',
            label: t('storage.delete.action'),
            danger: true,
            menu: 'storage-log-del',
            confirm: { title: t('storage.delete.rowTitle'), message: t('storage.delete.rowMessage', { record: named(l) }) },
            onClick: () => table.run(() => logs.remove([l.id]), t('storage.delete.done')),
          },
        ]}
        batchActions={[
          {
            key: 'delete',
            label: t('storage.delete.action'),
            icon: <DeleteRegular />,
            danger: true,
            menu: 'storage-log-del',
            confirm: (rows) => ({
              title: t('storage.delete.title', { count: rows.length }),
              message: <RecordList intro={t('storage.delete.message')} names={rows.map(named)} />,
            }),
            onClick: (ids) => table.run(() => logs.remove(ids), t('storage.delete.done')),
          },
        ]}
        toolbar={({ total }) =>
          canClear ? <ClearAllMenu label={t('storage.clear.action')} disabled={total === 0} onClick={() => void clear(total)} /> : null
        }
      />
    </PageContainer>
  );
}
