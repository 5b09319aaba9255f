import { useEndpoints, useTranslation } from '@/core';
import { GrantsTab } from '@/domain';
import { Link } from 'react-router-dom';
import { type GroupGrantRow, GRANT_KEYS, grantApi, type Grantee, type UserGrantRow } from './api';

type GrantRow = UserGrantRow | GroupGrantRow;

const isUser = (row: GrantRow): row is UserGrantRow => 'userId' in row;

// What differs between the two tabs: keys, labels and where a name links to.
const GATES = {
  user: { add: 'asset-authorised-user-add', remove: 'asset-authorised-user-del' },
  group: { add: 'asset-authorised-user-group-add', remove: 'asset-authorised-user-group-del' },
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
  const users = who === 'user';

  const name = (row: GrantRow) => (isUser(row) ? row.userName : row.userGroupName);
  const target = (row: GrantRow) =>
    isUser(row) ? `/user/${encodeURIComponent(row.userId)}` : `/user-group/${encodeURIComponent(row.userGroupId)}`;
  const nameLabel = t(users ? 'grants.users.name' : 'grants.groups.name');

  return (
    <GrantsTab<GrantRow>
      tableKey={users ? 'asset-grant-users' : 'asset-grant-groups'}
      title={t(users ? 'grants.users.title' : 'grants.groups.title')}
      text={(key, values) => t(`grants.${key}`, values)}
      allKey={GRANT_KEYS.of(assetId)}
      listKey={GRANT_KEYS.list(assetId, who)}
      fetchPage={users ? grants.userPage : grants.groupPage}
      extraParams={{ assetId }}
      subject={{
        label: nameLabel,
        name,
        columns: [{ key: 'name', header: nameLabel, hideable: false, render: (r) => <Link to={target(r)}>{name(r)}</Link> }],
      }}
      gates={GATES[who]}
      bind={{
        title: t(users ? 'grants.dialog.userTitle' : 'grants.dialog.groupTitle'),
        label: t(users ? 'grants.dialog.users' : 'grants.dialog.groups'),
        requiredMessage: t(users ? 'grants.dialog.usersRequired' : 'grants.dialog.groupsRequired'),
        choices: { queryKey: GRANT_KEYS.choices(assetId, who), load: () => grants.choices(who, assetId) },
        submit: (v) => grants.bind(who, assetId, v),
      }}
      strategies={{ queryKey: GRANT_KEYS.strategies, load: grants.strategies }}
      unbind={grants.unbind}
      explain={{
        pair: (r) => (isUser(r) ? { userId: r.userId, userName: r.userName, assetId, assetName } : null),
        queryKey: GRANT_KEYS.explain,
        load: grants.explain,
      }}
    />
  );
}
