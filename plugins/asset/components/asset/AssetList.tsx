import {
  BatchProgress,
  Can,
  formatDateTime,
  PageContainer,
  ServerTable,
  type ServerTableHandle,
  useBatchRun,
  useBus,
  useCan,
  useDownload,
  useEndpoints,
  useTableActions,
  useTranslation,
} from '@/core';
import { useAssetColumns } from '@/domain';
import { Button } from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons/svg/arrow-download';
import { ArrowUploadRegular } from '@fluentui/react-icons/svg/arrow-upload';
import { PlugConnectedRegular } from '@fluentui/react-icons/svg/plug-connected';
import { useRef, useState } from 'react';
import { ASSET_KEYS, type AssetRow, assetApi, type TcpingItem } from './api';
import { AssetFormDialog, type AssetFormMode } from './AssetFormDialog';
import { ChangeOwnerDialog } from '../ChangeOwnerDialog';
import { ImportAssetsDialog } from './ImportAssetsDialog';

/** How many assets one batch request checks (the server probes a bounded number at a time). */
const TCPING_CHUNK = 10;

/** The protocols the terminal page (`/term`) opens. */
export const TERMINAL_PROTOCOLS: readonly string[] = ['ssh', 'telnet'];

/** The protocols the desktop page (`/access`) opens. */
export const DESKTOP_PROTOCOLS: readonly string[] = ['vnc', 'rdp'];

/** `#/access?…`: the desktop page of a VNC or RDP asset, opened in a new browser tab by 接入. */
export const desktopHref = (a: { id: string; name: string; protocol: string }) =>
  `#/access?${new URLSearchParams({ assetId: a.id, assetName: a.name, protocol: a.protocol })}`;

/** Where 接入 goes for an asset of this protocol (null: nowhere yet). */
export const accessHref = (a: { id: string; name: string; protocol: string }): string | null =>
  TERMINAL_PROTOCOLS.includes(a.protocol) ? terminalHref(a) : DESKTOP_PROTOCOLS.includes(a.protocol) ? desktopHref(a) : null;

/** `#/term?…`: the terminal page of an SSH or Telnet asset, opened in a new browser tab by 接入 (`protocol` picks its socket). */
export const terminalHref = (a: { id: string; name: string; protocol: string }) =>
  `#/term?${new URLSearchParams({ assetId: a.id, assetName: a.name, protocol: a.protocol })}`;

/** The network search as 1.3.9 reads it: `ip`, `:port` or `ip:port`. */
export function splitNetwork(value: string): Record<string, string> {
  const text = value.trim();
  const colon = text.indexOf(':');
  if (colon < 0) return { ip: text };
  return { ip: text.slice(0, colon).trim(), port: text.slice(colon + 1).trim() };
}

export function AssetList() {
  const { t } = useTranslation('asset');
  const assets = useEndpoints(assetApi);
  const table = useTableActions(ASSET_KEYS.list);
  const tableRef = useRef<ServerTableHandle>(null);
  const bus = useBus();
  const download = useDownload();
  const canOpen = useCan('asset-detail');
  const [form, setForm] = useState<AssetFormMode>({ kind: 'closed' });
  const [ownerOf, setOwnerOf] = useState<AssetRow | null>(null);
  const [importing, setImporting] = useState(false);
  // Assets whose connectivity check is under way: their status shows 测试中.
  const [testing, setTesting] = useState<ReadonlySet<string>>(new Set());
  const batch = useBatchRun();

  const mark = (list: readonly string[], on: boolean) =>
    setTesting((current) => {
      const next = new Set(current);
      for (const id of list) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  const show = (results: readonly TcpingItem[]) => {
    const byId = new Map(results.map((r) => [r.id, r]));
    table.updateRows<AssetRow>((row) => {
      const r = byId.get(row.id);
      return r ? { ...row, active: r.active, activeMessage: r.message } : row;
    });
  };

  const testOne = async (row: AssetRow) => {
    mark([row.id], true);
    try {
      const result = await assets.tcping(row.id);
      show([{ id: row.id, ...result }]);
    } catch {
      // The API client has shown why.
    } finally {
      mark([row.id], false);
    }
  };

  const testMany = async (list: string[]) => {
    mark(list, true);
    let up = 0;
    try {
      await batch.run(
        list,
        TCPING_CHUNK,
        (chunk) => assets.tcpingMany(chunk),
        (results, chunk) => {
          show(results);
          up += results.filter((r) => r.active).length;
          mark(chunk, false);
        },
      );
      bus.emit('notify', { intent: 'info', message: t('asset.connTest.done', { active: up, inactive: list.length - up }) });
    } catch {
      // A chunk failed: the API client has shown why; the rows checked so far keep their new state.
    } finally {
      mark(list, false);
    }
  };

  const detail = (row: AssetRow) => `/asset/${encodeURIComponent(row.id)}`;
  const { search, columns } = useAssetColumns<AssetRow>({
    text: (key) => t(`asset.${key}`),
    tags: { queryKey: ASSET_KEYS.tags, load: assets.tags },
    linkTo: canOpen ? detail : undefined,
    testing: (a) => testing.has(a.id),
  });

  return (
    <PageContainer>
      <ServerTable<AssetRow>
        ref={tableRef}
        tableKey="asset"
        title={t('asset.list.title')}
        queryKey={ASSET_KEYS.list}
        fetchPage={assets.page}
        getRowId={(a) => a.id}
        rowLabel={(a) => t('asset.list.select', { name: a.name })}
        indexColumn
        searchFields={[
          search.name,
          search.protocol,
          { name: 'network', label: t('asset.fields.network'), placeholder: t('asset.placeholders.network'), toQuery: splitNetwork },
          search.tags,
          {
            name: 'active',
            label: t('asset.fields.status'),
            type: 'select',
            options: [
              { value: 'true', label: t('asset.status.active') },
              { value: 'false', label: t('asset.status.inactive') },
            ],
          },
        ]}
        columns={[
          columns.name,
          columns.protocol,
          { key: 'network', header: t('asset.fields.network'), sortField: 'ip', render: (a) => `${a.ip}:${a.port}` },
          columns.tags,
          columns.status,
          { key: 'owner', header: t('asset.fields.owner'), render: (a) => a.ownerName || '-' },
          { key: 'created', header: t('asset.fields.created'), sortField: 'created', render: (a) => formatDateTime(a.created) },
          columns.lastAccess,
        ]}
        add={{ menu: 'asset-add', onClick: () => setForm({ kind: 'new' }) }}
        toolbar={
          <>
            <BatchProgress label={t('asset.actions.connTest')} progress={batch.progress} />
            <Can menu="asset-import">
              <Button icon={<ArrowUploadRegular />} onClick={() => setImporting(true)}>
                {t('asset.actions.import')}
              </Button>
            </Can>
            <Can menu="asset">
              <Button icon={<ArrowDownloadRegular />} onClick={() => download('/assets/export', tableRef.current?.searchQuery())}>
                {t('asset.actions.export')}
              </Button>
            </Can>
          </>
        }
        rowActions={(a) => [
          // SSH and Telnet to the terminal, VNC and RDP to the desktop. A new browser tab, as 1.3.9.
          ...(accessHref(a) !== null
            ? [{ key: 'connect', label: t('asset.actions.connect'), menu: 'asset-access' as const, onClick: () => window.open(accessHref(a) ?? '', '_blank') }]
            : []),
          { key: 'edit', label: t('asset.actions.edit'), menu: 'asset-edit', onClick: () => setForm({ kind: 'edit', id: a.id }) },
          { key: 'copy', label: t('asset.actions.copy'), menu: 'asset-copy', overflow: true, onClick: () => setForm({ kind: 'copy', id: a.id }) },
          {
            key: 'conn-test',
            label: t('asset.actions.connTest'),
            menu: 'asset-conn-test',
            overflow: true,
            disabled: testing.has(a.id),
            onClick: () => testOne(a),
          },
          { key: 'change-owner', label: t('asset.actions.changeOwner'), menu: 'asset-change-owner', overflow: true, onClick: () => setOwnerOf(a) },
          { key: 'detail', label: t('asset.actions.detail'), menu: 'asset-detail', overflow: true, href: `${detail(a)}?activeKey=info` },
          // The detail page needs asset-detail too: both keys, as the tabs there need both.
          ...(canOpen
            ? [
                { key: 'bind-user', label: t('grants.actions.users'), menu: 'asset-authorised-user' as const, overflow: true, href: `${detail(a)}?activeKey=bind-user` },
                { key: 'bind-user-group', label: t('grants.actions.groups'), menu: 'asset-authorised-user-group' as const, overflow: true, href: `${detail(a)}?activeKey=bind-user-group` },
              ]
            : []),
        ]}
        remove={{ menu: 'asset-del', run: assets.remove, batch: true }}
        batchActions={[
          {
            key: 'conn-test',
            label: t('asset.actions.connTest'),
            icon: <PlugConnectedRegular />,
            menu: 'asset-conn-test',
            onClick: (list) => testMany(list.map(String)),
          },
        ]}
      />
      <AssetFormDialog mode={form} onClose={() => setForm({ kind: 'closed' })} onSaved={() => table.done(t('asset.saved'))} />
      <ChangeOwnerDialog record={ownerOf} onClose={() => setOwnerOf(null)} change={assets.changeOwner} onChanged={() => table.done(t('asset.changeOwner.done'))} />
      <ImportAssetsDialog open={importing} onClose={() => setImporting(false)} onImported={table.reload} />
    </PageContainer>
  );
}
