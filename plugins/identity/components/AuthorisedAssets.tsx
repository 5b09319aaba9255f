import { type KeyGate, useEndpoints, useTranslation } from '@/core';
import { GrantsTab, ProtocolBadge } from '@/domain';
import { type AssetGrantRow, assetGrantApi, GRANT_KEYS, type GrantHolder } from '../api';

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
  const userId = 'userId' in holder ? holder.userId : undefined;

  return (
    <GrantsTab<AssetGrantRow>
      tableKey="identity-grant-assets"
      title={t('grants.title')}
      text={(key, values) => t(`grants.${key}`, values)}
      allKey={GRANT_KEYS.of(holder)}
      listKey={GRANT_KEYS.list(holder)}
      fetchPage={grants.page}
      extraParams={holder}
      subject={{
        label: t('grants.fields.assetName'),
        name: (r) => r.assetName,
        columns: [
          {
            key: 'name',
            header: t('grants.fields.assetName'),
            hideable: false,
            render: (r) => r.assetName,
            link: { to: (r) => `/asset/${encodeURIComponent(r.assetId)}` },
          },
          { key: 'protocol', header: t('grants.fields.protocol'), render: (r) => <ProtocolBadge protocol={r.protocol} /> },
        ],
      }}
      gates={{ add: gates.bind, remove: gates.unbind }}
      bind={{
        title: t('grants.dialog.title'),
        label: t('grants.dialog.assets'),
        requiredMessage: t('grants.dialog.assetsRequired'),
        choices: { queryKey: GRANT_KEYS.choices(holder), load: () => grants.choices(holder) },
        submit: ({ ids, ...rest }) => grants.bind(holder, { assetIds: ids, ...rest }),
      }}
      strategies={{ queryKey: GRANT_KEYS.strategies, load: grants.strategies }}
      unbind={grants.unbind}
      explain={
        userId
          ? {
              pair: (r) => ({ userId, userName: userName ?? userId, assetId: r.assetId, assetName: r.assetName }),
              queryKey: GRANT_KEYS.explain,
              load: grants.explain,
            }
          : undefined
      }
    />
  );
}
