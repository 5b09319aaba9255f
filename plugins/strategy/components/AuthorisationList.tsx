import { formatDateTime, PageContainer, ServerTable, StatusBadge, useEndpoints, useTableActions, useTranslation } from '@/core';
import { AccessExplainDialog, ProtocolBadge, ValidityBadge, ValidityWindow } from '@/domain';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { GRANT_KEYS, type GrantRow, grantApi } from '../api';
import { detailPath } from './StrategyList';
import { BulkGrantDialog } from './BulkGrantDialog';
import { MemberPickDialog } from './MemberPickDialog';

/** Whose grant a row is, by name. */
export const subjectOf = (r: GrantRow) => (r.kind === 'user' ? r.userName : r.userGroupName);

/** A user whose access to an asset is explained, with the names the dialog's title shows. */
interface Explained {
  userId: string;
  userName: string;
  assetId: string;
  assetName: string;
}

/**
 * 资产授权: every grant (who → which asset → strategy → validity) in one server-paged list, searchable by who and by
 * asset, filtered by kind and state; 为什么 asks the server why a user reaches the asset (for a group's grant, a
 * member picked first); 授权 grants several users and groups several assets at once; rows are removed one by one or
 * as a selection.
 */
export function AuthorisationList() {
  const { t } = useTranslation('strategy');
  const grants = useEndpoints(grantApi);
  const table = useTableActions(GRANT_KEYS.list);
  const [granting, setGranting] = useState(false);
  const [picking, setPicking] = useState<GrantRow | null>(null);
  const [explained, setExplained] = useState<Explained | null>(null);

  const who = (r: GrantRow) =>
    r.kind === 'user' ? `/user/${encodeURIComponent(r.userId)}` : `/user-group/${encodeURIComponent(r.userGroupId)}`;
  const why = (r: GrantRow) => {
    if (r.kind === 'user') setExplained({ userId: r.userId, userName: r.userName, assetId: r.assetId, assetName: r.assetName });
    else setPicking(r);
  };

  return (
    <PageContainer>
      <ServerTable<GrantRow>
        tableKey="authorisation"
        title={t('grants.title')}
        queryKey={GRANT_KEYS.list}
        fetchPage={grants.page}
        getRowId={(r) => r.id}
        rowLabel={(r) => t('grants.select', { who: subjectOf(r), asset: r.assetName })}
        searchFields={[
          { name: 'name', label: t('grants.fields.who'), placeholder: t('grants.search.who') },
          { name: 'assetName', label: t('grants.fields.asset'), placeholder: t('grants.search.asset') },
          {
            name: 'kind',
            label: t('grants.fields.kind'),
            type: 'radio',
            options: [
              { value: 'user', label: t('grants.kind.user') },
              { value: 'group', label: t('grants.kind.group') },
            ],
          },
          {
            name: 'state',
            label: t('grants.fields.state'),
            type: 'select',
            options: [
              { value: 'active', label: t('grants.state.active') },
              { value: 'pending', label: t('grants.state.pending') },
              { value: 'expired', label: t('grants.state.expired') },
            ],
          },
        ]}
        columns={[
          {
            key: 'who',
            header: t('grants.fields.who'),
            sortField: 'name',
            hideable: false,
            render: (r) => <Link to={who(r)}>{subjectOf(r)}</Link>,
          },
          {
            key: 'kind',
            header: t('grants.fields.kind'),
            render: (r) => <StatusBadge tone={r.kind === 'user' ? 'processing' : 'default'}>{t(`grants.kind.${r.kind}`)}</StatusBadge>,
          },
          {
            key: 'asset',
            header: t('grants.fields.asset'),
            sortField: 'assetName',
            hideable: false,
            render: (r) => <Link to={`/asset/${encodeURIComponent(r.assetId)}`}>{r.assetName}</Link>,
          },
          { key: 'protocol', header: t('grants.fields.protocol'), render: (r) => <ProtocolBadge protocol={r.protocol} /> },
          {
            key: 'strategy',
            header: t('grants.fields.strategy'),
            render: (r) =>
              r.strategyId ? <Link to={detailPath(r.strategyId)}>{r.strategyName || r.strategyId}</Link> : <span title={t('grants.noStrategyHint')}>{t('grants.noStrategy')}</span>,
          },
          {
            key: 'window',
            header: t('grants.fields.window'),
            sortField: 'validUntil',
            render: (r) => <ValidityWindow from={r.validFrom} until={r.validUntil} />,
          },
          { key: 'state', header: t('grants.fields.state'), render: (r) => <ValidityBadge state={r.state} /> },
          { key: 'created', header: t('grants.fields.created'), sortField: 'created', render: (r) => formatDateTime(r.created) },
        ]}
        add={{ menu: 'authorisation-add', label: t('grants.grant'), onClick: () => setGranting(true) }}
        rowActions={(r) => [
          { key: 'why', label: t('grants.why'), onClick: () => why(r) },
          {
            key: 'remove',
            label: t('grants.remove'),
            menu: 'authorisation-del',
            danger: true,
            confirm: { title: t('grants.removeOne.title', { who: subjectOf(r), asset: r.assetName }), message: t('grants.removeOne.message') },
            onClick: () => table.run(() => grants.remove([r.id]), t('grants.removed')),
          },
        ]}
        batchActions={[
          {
            key: 'remove',
            label: t('grants.removeSelected'),
            menu: 'authorisation-del',
            danger: true,
            confirm: (rows) => ({ title: t('grants.removeMany.title', { count: rows.length }), message: t('grants.removeOne.message') }),
            onClick: (ids) => table.run(() => grants.remove(ids), t('grants.removed')),
          },
        ]}
      />
      <BulkGrantDialog open={granting} onClose={() => setGranting(false)} onGranted={(message) => table.done(message)} />
      <MemberPickDialog
        grant={picking}
        onClose={() => setPicking(null)}
        onPicked={(member) => {
          if (picking) setExplained({ userId: member.id, userName: member.name, assetId: picking.assetId, assetName: picking.assetName });
          setPicking(null);
        }}
      />
      <AccessExplainDialog
        open={explained !== null}
        onClose={() => setExplained(null)}
        title={explained ? t('grants.explainTitle', { user: explained.userName, asset: explained.assetName }) : undefined}
        queryKey={GRANT_KEYS.explain(explained?.userId ?? '', explained?.assetId ?? '')}
        load={() => grants.explain(explained?.userId ?? '', explained?.assetId ?? '')}
      />
    </PageContainer>
  );
}
