import {
  Descriptions,
  DetailTabs,
  formatDateTime,
  RecordPage,
  TagList,
  useBus,
  useCan,
  useConfirm,
  useEndpoints,
  useQuery,
  useQueryClient,
  useTranslation,
} from '@/core';
import { AssetStatus, ProtocolBadge } from '@/domain';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { useParams } from 'react-router-dom';
import { ASSET_KEYS, type AssetRecord, assetApi } from './api';
import { AssetGrants } from '../grants/AssetGrants';

const useStyles = makeStyles({
  hostKey: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalM, rowGap: tokens.spacingVerticalXS },
  fingerprint: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
});

function none(value: string | undefined): string | undefined {
  return value === undefined || value === '' || value === '-' ? undefined : value;
}

/** /asset/:assetId — the info tab, and (each behind its key) the users and user groups the asset is granted to. */
export function AssetDetail() {
  const { t } = useTranslation('asset');
  const { assetId = '' } = useParams();
  const assets = useEndpoints(assetApi);
  const record = useQuery({ queryKey: ASSET_KEYS.one(assetId), queryFn: () => assets.get(assetId) });
  // The gateway's name needs `GET /access-gateways`, which only these keys open; without them its id is shown.
  const canListGateways = useCan('asset-add', 'asset-edit', 'asset-copy');
  const canSeeUsers = useCan('asset-authorised-user');
  const canSeeGroups = useCan('asset-authorised-user-group');
  const gatewayId = none(record.data?.accessGatewayId);
  const gateways = useQuery({ queryKey: ASSET_KEYS.gateways, queryFn: assets.gateways, enabled: canListGateways && gatewayId !== undefined });
  const a = record.data;
  const styles = useStyles();
  const confirm = useConfirm();
  const bus = useBus();
  const client = useQueryClient();
  // The server lets only the owner or the super admin trust another key; an editor who is neither sees its refusal.
  const canTrust = useCan('asset-edit');
  const trust = async () => {
    if (!(await confirm({ title: t('asset.detail.trustHostKey'), message: t('asset.detail.trustConfirm') }))) return;
    try {
      await assets.trustHostKey(assetId);
      bus.emit('notify', { intent: 'success', message: t('asset.detail.trusted') });
      await client.invalidateQueries({ queryKey: ASSET_KEYS.one(assetId) });
    } catch {
      // The API client has already shown the server's refusal.
    }
  };
  const hostKey = (asset: AssetRecord) => (
    <span className={styles.hostKey}>
      <span className={styles.fingerprint}>{none(asset.hostKey) ?? t('asset.detail.hostKeyNone')}</span>
      {canTrust && none(asset.hostKey) ? (
        <Button size="small" onClick={() => void trust()}>
          {t('asset.detail.trustHostKey')}
        </Button>
      ) : null}
    </span>
  );

  const accountType = (asset: AssetRecord) =>
    asset.protocol === 'kubernetes' || !asset.accountType ? undefined : t(`asset.accountTypes.${asset.accountType}`);
  const gateway = gatewayId ? (gateways.data?.find((g) => g.value === gatewayId)?.label ?? gatewayId) : undefined;

  return (
    <RecordPage title={a?.name ?? t('asset.detail.title')} backTo="/asset" isPending={record.isPending} error={record.error}>
      {() => (
        <DetailTabs
          tabs={[
            {
              key: 'info',
              label: t('asset.detail.info'),
              content: () =>
                a ? (
                  <Descriptions
                    columns={2}
                    items={[
                      { label: t('asset.fields.assetName'), value: a.name },
                      { label: t('asset.fields.protocol'), value: <ProtocolBadge protocol={a.protocol} /> },
                      { label: t('asset.fields.ip'), value: a.ip },
                      { label: t('asset.fields.port'), value: a.port },
                      { label: t('asset.fields.tags'), value: <TagList tags={a.tags} /> },
                      { label: t('asset.fields.accountType'), value: accountType(a) },
                      { label: t('asset.fields.gateway'), value: gateway },
                      ...(a.protocol === 'ssh' ? [{ label: t('asset.fields.hostKey'), value: hostKey(a), span: 2 }] : []),
                      { label: t('asset.fields.owner'), value: none(a.ownerName) ?? none(a.owner) },
                      { label: t('asset.fields.status'), value: <AssetStatus active={a.active} message={a.activeMessage} /> },
                      { label: t('asset.fields.created'), value: formatDateTime(a.created) },
                      { label: t('asset.fields.lastAccess'), value: formatDateTime(a.lastAccessTime) },
                      { label: t('asset.fields.description'), value: none(a.description), span: 2 },
                    ]}
                  />
                ) : null,
            },
            {
              key: 'bind-user',
              label: t('grants.users.tab'),
              visible: canSeeUsers,
              content: () => <AssetGrants assetId={assetId} assetName={a?.name ?? assetId} who="user" />,
            },
            {
              key: 'bind-user-group',
              label: t('grants.groups.tab'),
              visible: canSeeGroups,
              content: () => <AssetGrants assetId={assetId} assetName={a?.name ?? assetId} who="group" />,
            },
          ]}
        />
      )}
    </RecordPage>
  );
}
