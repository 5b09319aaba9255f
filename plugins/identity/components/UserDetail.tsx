import { Descriptions, DetailTabs, formatDateTime, RecordPage, useEndpoints, useCan, useQuery, useTranslation } from '@/core';
import { Tag } from '@fluentui/react-components';
import { useParams } from 'react-router-dom';
import { KEYS, roleApi, userApi } from '../api';
import { AuthorisedAssets } from './AuthorisedAssets';
import { useSharedStyles } from './shared';

export function UserDetail() {
  const { t } = useTranslation('identity');
  const styles = useSharedStyles();
  const { userId = '' } = useParams();
  const users = useEndpoints(userApi);
  const roles = useEndpoints(roleApi);
  const record = useQuery({ queryKey: KEYS.user(userId), queryFn: () => users.get(userId) });
  // Role names need `GET /roles`, which only these keys open; without them the ids are shown.
  const canListRoles = useCan('user-add', 'user-edit', 'user-detail', 'role');
  const canSeeAssets = useCan('user-authorised-asset');
  const roleList = useQuery({ queryKey: KEYS.roleOptions, queryFn: roles.options, enabled: canListRoles });
  const u = record.data;
  const roleName = (id: string) => roleList.data?.find((r) => r.value === id)?.label ?? id;

  return (
    <RecordPage title={u?.nickname ?? t('user.detailTitle')} backTo="/user" isPending={record.isPending} error={record.error}>
      {() => (
        <DetailTabs
          tabs={[
            {
              key: 'info',
              label: t('common.basicInfo'),
              content: () => (
                <Descriptions
                  items={[
                    { label: t('user.fields.name'), value: u?.username },
                    { label: t('user.fields.nick'), value: u?.nickname },
                    { label: t('user.fields.mail'), value: u?.mail },
                    { label: t('user.fields.type'), value: t(u?.type === 'admin' ? 'user.type.admin' : 'user.type.user') },
                    { label: t('user.fields.status'), value: t(u?.status === 'disabled' ? 'user.status.disabled' : 'user.status.enabled') },
                    { label: t('user.fields.totp'), value: t(u?.totpSecret === '1' ? 'user.totp.on' : 'user.totp.off') },
                    { label: t('user.fields.source'), value: t(u?.source === 'ldap' ? 'user.source.ldap' : 'user.source.database') },
                    {
                      label: t('user.fields.roles'),
                      value:
                        u?.roles && u.roles.length > 0 ? (
                          <span className={styles.tags}>
                            {u.roles.map((id) => (
                              <Tag key={id} size="small" shape="rounded">
                                {roleName(id)}
                              </Tag>
                            ))}
                          </span>
                        ) : undefined,
                    },
                    { label: t('common.created'), value: formatDateTime(u?.created) },
                  ]}
                />
              ),
            },
            {
              key: 'asset',
              label: t('grants.tab'),
              visible: canSeeAssets,
              content: () => (
                <AuthorisedAssets holder={{ userId }} userName={u?.nickname} gates={{ bind: 'user-bind-asset', unbind: 'user-unbind-asset' }} />
              ),
            },
          ]}
        />
      )}
    </RecordPage>
  );
}
