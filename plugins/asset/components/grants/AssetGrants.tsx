import { AddButton, formatDateTime, type PageQuery, type PageResult, ServerTable, useEndpoints, useTableActions, useTranslation } from '@/core';
import { AccessExplainDialog, ValidityBadge, ValidityWindow } from '@/domain';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { type GroupGrantRow, GRANT_KEYS, grantApi, type Grantee, type UserGrantRow } from './api';
import { GrantDialog } from './GrantDialog';

type GrantRow = UserGrantRow | GroupGrantRow;

const isUser = (row: GrantRow): row is UserGrantRow => 'userId' in row;

// What differs between the two tabs: keys, labels and where a name links to.
const GATES = {
  user: { add: 'asset-authorised-user-add', del: 'asset-authorised-user-del' },
  group: { add: 'asset-authorised-user-group-add', del: 'asset-authorised-user-group-del' },
} as const;

export interface AssetGrantsProps {
  assetId: string;
  assetName: string;
  who: Grantee;
}

/** The 授权的用户 / 授权的用户组 tab of an asset: its grants, granting more, removing one, and (users) why. */
export function AssetGrants({ assetId, assetName, who }: AssetGrantsProps) {
  const { t } = useTranslation('asset');
  const grants = useEndpoints(grantApi);
  const table = useTableActions(GRANT_KEYS.of(assetId));
  const [binding, setBinding] = useState(false);
  const [explained, setExplained] = useState<UserGrantRow | null>(null);
  const gate = GATES[who];

  const name = (row: GrantRow) => (isUser(row) ? row.userName : row.userGroupName);
  const target = (row: GrantRow) =>
    isUser(row) ? `/user/${encodeURIComponent(row.userId)}` : `/user-group/${encodeURIComponent(row.userGroupId)}`;
  const fetchPage = (query: PageQuery): Promise<PageResult<GrantRow>> => (who === 'user' ? grants.userPage(query) : grants.groupPage(query));

  return (
    <>
      <ServerTable<GrantRow>
        tableKey={who === 'user' ? 'asset-grant-users' : 'asset-grant-groups'}
        title={t(who === 'user' ? 'grants.users.title' : 'grants.groups.title')}
        queryKey={GRANT_KEYS.list(assetId, who)}
        fetchPage={fetchPage}
        extraParams={{ assetId }}
        getRowId={(r) => r.id}
        searchFields={[{ name: 'name', label: t(who === 'user' ? 'grants.users.name' : 'grants.groups.name') }]}
        columns={[
          {
            key: 'name',
            header: t(who === 'user' ? 'grants.users.name' : 'grants.groups.name'),
            hideable: false,
            render: (r) => <Link to={target(r)}>{name(r)}</Link>,
          },
          {
            key: 'strategy',
            header: t('grants.fields.strategy'),
            render: (r) => (r.strategyId ? <Link to={`/strategy/${encodeURIComponent(r.strategyId)}`}>{r.strategyName || r.strategyId}</Link> : '-'),
          },
          { key: 'window', header: t('grants.fields.window'), render: (r) => <ValidityWindow from={r.validFrom} until={r.validUntil} /> },
          { key: 'state', header: t('grants.fields.state'), render: (r) => <ValidityBadge state={r.state} /> },
          { key: 'created', header: t('grants.fields.created'), render: (r) => formatDateTime(r.created) },
        ]}
        toolbar={<AddButton menu={gate.add} label={t('grants.actions.grant')} onClick={() => setBinding(true)} />}
        rowActions={(r) => [
          ...(isUser(r) ? [{ key: 'explain', label: t('grants.actions.explain'), onClick: () => setExplained(r) }] : []),
          {
            key: 'remove',
            label: t('grants.actions.remove'),
            menu: gate.del,
            danger: true,
            confirm: { title: t('grants.remove.title', { name: name(r) }), message: t('grants.remove.message') },
            onClick: () => table.run(() => grants.unbind(r.id), t('grants.removed')),
          },
        ]}
      />
      <GrantDialog
        open={binding}
        who={who}
        assetId={assetId}
        onClose={() => setBinding(false)}
        // Reloads everything under the asset's grants key: the lists and the already-granted lookups.
        onGranted={() => table.done(t('grants.granted'))}
      />
      <AccessExplainDialog
        open={explained !== null}
        onClose={() => setExplained(null)}
        title={explained ? t('grants.explainTitle', { user: explained.userName, asset: assetName }) : undefined}
        queryKey={GRANT_KEYS.explain(explained?.userId ?? '', assetId)}
        load={() => grants.explain(explained?.userId ?? '', assetId)}
      />
    </>
  );
}
