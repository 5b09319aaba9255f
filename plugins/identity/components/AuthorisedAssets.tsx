import {
  AddButton,
  FormDialog,
  type FormItem,
  formatDateTime,
  type KeyGate,
  ServerTable,
  useEndpoints,
  useTableActions,
  useTranslation,
} from '@/core';
import { AccessExplainDialog, ProtocolBadge, useValidityFields, ValidityBadge, ValidityWindow } from '@/domain';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { type AssetGrantRow, assetGrantApi, GRANT_KEYS, type GrantHolder } from '../api';

interface Values extends Record<string, unknown> {
  assetIds: string[];
  strategyId: string;
  validFrom: string;
  validUntil: string;
}

const EMPTY: Values = { assetIds: [], strategyId: '', validFrom: '', validUntil: '' };

export interface AuthorisedAssetsProps {
  holder: GrantHolder;
  /** The user's nickname (the explanation's title); absent for a group, which has no explanation of its own. */
  userName?: string;
  gates: { bind: KeyGate; unbind: KeyGate };
}

/** The 授权的资产 tab of a user or a user group: the assets granted, granting more, removing one, and (users) why. */
export function AuthorisedAssets({ holder, userName, gates }: AuthorisedAssetsProps) {
  const { t } = useTranslation('identity');
  const grants = useEndpoints(assetGrantApi);
  const table = useTableActions(GRANT_KEYS.of(holder));
  const validity = useValidityFields<Values>({ from: 'validFrom', until: 'validUntil' });
  const [binding, setBinding] = useState(false);
  const [explained, setExplained] = useState<AssetGrantRow | null>(null);
  const userId = 'userId' in holder ? holder.userId : undefined;

  const fields: FormItem<Values>[] = [
    {
      name: 'assetIds',
      label: t('grants.dialog.assets'),
      type: 'multiselect',
      searchable: true,
      required: true,
      requiredMessage: t('grants.dialog.assetsRequired'),
      remoteOptions: { queryKey: GRANT_KEYS.choices(holder), load: () => grants.choices(holder) },
    },
    {
      name: 'strategyId',
      label: t('grants.dialog.strategy'),
      type: 'select',
      placeholder: t('grants.dialog.strategyPlaceholder'),
      hint: t('grants.dialog.strategyHint'),
      remoteOptions: { queryKey: GRANT_KEYS.strategies, load: grants.strategies },
    },
    validity,
  ];

  return (
    <>
      <ServerTable<AssetGrantRow>
        tableKey="identity-grant-assets"
        title={t('grants.title')}
        queryKey={GRANT_KEYS.list(holder)}
        fetchPage={grants.page}
        extraParams={holder}
        getRowId={(r) => r.id}
        searchFields={[{ name: 'name', label: t('grants.fields.assetName') }]}
        columns={[
          {
            key: 'name',
            header: t('grants.fields.assetName'),
            hideable: false,
            render: (r) => r.assetName,
            link: { to: (r) => `/asset/${encodeURIComponent(r.assetId)}` },
          },
          {
            key: 'protocol',
            header: t('grants.fields.protocol'),
            render: (r) => <ProtocolBadge protocol={r.protocol} />,
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
        toolbar={<AddButton menu={gates.bind} label={t('grants.actions.grant')} onClick={() => setBinding(true)} />}
        rowActions={(r) => [
          ...(userId ? [{ key: 'explain', label: t('grants.actions.explain'), onClick: () => setExplained(r) }] : []),
          {
            key: 'remove',
            label: t('grants.actions.remove'),
            menu: gates.unbind,
            danger: true,
            confirm: { title: t('grants.remove.title', { name: r.assetName }), message: t('grants.remove.message') },
            onClick: () => table.run(() => grants.unbind(r.id), t('grants.removed')),
          },
        ]}
      />
      <FormDialog<Values>
        open={binding}
        onClose={() => setBinding(false)}
        title={t('grants.dialog.title')}
        initialValues={EMPTY}
        fields={fields}
        onSubmit={async (v) => {
          await grants.bind(holder, { assetIds: v.assetIds, strategyId: v.strategyId, validFrom: v.validFrom, validUntil: v.validUntil });
          // Reloads everything under the holder's grants key: the list and the already-granted lookup.
          await table.done(t('grants.granted'));
        }}
      />
      {userId ? (
        <AccessExplainDialog
          open={explained !== null}
          onClose={() => setExplained(null)}
          title={explained ? t('grants.explainTitle', { user: userName ?? userId, asset: explained.assetName }) : undefined}
          queryKey={GRANT_KEYS.explain(userId, explained?.assetId ?? '')}
          load={() => grants.explain(userId, explained?.assetId ?? '')}
        />
      ) : null}
    </>
  );
}
