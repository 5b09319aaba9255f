import { Descriptions, DetailTabs, formatDateTime, RecordPage, useCan, useEndpoints, useQuery, useTranslation } from '@/core';
import { Tag } from '@fluentui/react-components';
import { useParams } from 'react-router-dom';
import { groupApi, KEYS } from '../api';
import { AuthorisedAssets } from './AuthorisedAssets';
import { useSharedStyles } from './shared';

export function UserGroupDetail() {
  const { t } = useTranslation('identity');
  const styles = useSharedStyles();
  const { userGroupId = '' } = useParams();
  const groups = useEndpoints(groupApi);
  const record = useQuery({ queryKey: KEYS.group(userGroupId), queryFn: () => groups.get(userGroupId) });
  const g = record.data;
  const canSeeAssets = useCan('user-group-authorised-asset');

  return (
    <RecordPage title={g?.name ?? t('group.detailTitle')} backTo="/user-group" isPending={record.isPending} error={record.error}>
      {() => (
        <DetailTabs
          tabs={[
            {
              key: 'info',
              label: t('common.basicInfo'),
              content: () => (
                <Descriptions
                  columns={2}
                  items={[
                    { label: t('group.fields.name'), value: g?.name },
                    { label: t('common.created'), value: formatDateTime(g?.created) },
                    {
                      label: t('group.fields.memberList'),
                      span: 2,
                      value:
                        g?.members && g.members.length > 0 ? (
                          <span className={styles.tags}>
                            {g.members.map((m) => (
                              <Tag key={m.id} size="small" shape="rounded">
                                {m.name}
                              </Tag>
                            ))}
                          </span>
                        ) : undefined,
                    },
                  ]}
                />
              ),
            },
            {
              key: 'asset',
              label: t('grants.tab'),
              visible: canSeeAssets,
              content: () => (
                <AuthorisedAssets holder={{ userGroupId }} gates={{ bind: 'user-group-bind-asset', unbind: 'user-group-unbind-asset' }} />
              ),
            },
          ]}
        />
      )}
    </RecordPage>
  );
}
