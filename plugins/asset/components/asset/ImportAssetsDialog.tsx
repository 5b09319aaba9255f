import { ImportDialog, TagList, textFileHref, useBus, useEndpoints, useTranslation } from '@/core';
import { ProtocolBadge } from '@/domain';
import { type ImportRow, assetApi } from './api';

// 1.3.9's sample: one line, no header; columns name, protocol, ip, port, username, password, private key, passphrase,
// description, tags (separated by `|`).
const SAMPLE = 'name,ssh,127.0.0.1,22,username,password,privateKey,passphrase,description,tag1|tag2|tag3\n';

/** 导入资产: a CSV file, checked by a dry run (every line's error shown), then imported; the result as 1.3.9 words it. */
export function ImportAssetsDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: () => Promise<void> }) {
  const { t } = useTranslation('asset');
  const assets = useEndpoints(assetApi);
  const bus = useBus();
  return (
    <ImportDialog<ImportRow>
      open={open}
      onClose={onClose}
      title={t('asset.import.title')}
      accept=".csv,text/csv"
      note={
        <>
          {t('asset.import.format')}
          <br />
          {t('asset.import.note')}
        </>
      }
      sample={{ label: t('asset.import.sample'), fileName: 'sample.csv', href: textFileHref(SAMPLE, { type: 'text/csv', bom: true }) }}
      preview={async (file) => (await assets.importCsv(file, true)).rows ?? []}
      columns={[
        { key: 'row', header: t('asset.import.row'), render: (r) => r.row },
        { key: 'name', header: t('asset.fields.name'), render: (r) => r.name },
        { key: 'protocol', header: t('asset.fields.protocol'), render: (r) => (r.protocol ? <ProtocolBadge protocol={r.protocol} /> : '-') },
        { key: 'network', header: t('asset.fields.network'), render: (r) => `${r.ip}:${r.port}` },
        { key: 'username', header: t('asset.fields.username'), render: (r) => r.username || '-' },
        { key: 'tags', header: t('asset.fields.tags'), render: (r) => <TagList tags={r.tags} /> },
      ]}
      getRowKey={(r) => r.row}
      rowError={(r) => r.error}
      onImport={async (file) => {
        let result: Awaited<ReturnType<typeof assets.importCsv>>;
        try {
          result = await assets.importCsv(file, false);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          bus.emit('notify', { intent: 'error', kind: 'notification', title: t('asset.import.failed'), message });
          throw error;
        }
        const { successCount, errorCount } = result;
        if (errorCount === 0) {
          bus.emit('notify', { intent: 'success', kind: 'notification', title: t('asset.import.ok'), message: t('asset.import.okMessage', { count: successCount }) });
        } else {
          bus.emit('notify', {
            intent: successCount > 0 ? 'warning' : 'error',
            kind: 'notification',
            title: t('asset.import.partial'),
            message: t('asset.import.partialMessage', { success: successCount, error: errorCount }),
          });
        }
        await onImported();
      }}
    />
  );
}
