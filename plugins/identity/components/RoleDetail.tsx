import { CheckTree, Descriptions, DetailTabs, formatDateTime, RecordPage, useEndpoints, useQuery, useTranslation } from '@/core';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { KEYS, roleApi } from '../api';
import { checkedFromRefs, menuNodes } from '../menus';

export function RoleDetail() {
  const { t, i18n } = useTranslation('identity');
  const { roleId = '' } = useParams();
  const roles = useEndpoints(roleApi);
  const record = useQuery({ queryKey: KEYS.role(roleId), queryFn: () => roles.get(roleId) });
  const tree = useQuery({ queryKey: KEYS.menus, queryFn: roles.menus, staleTime: Number.POSITIVE_INFINITY });
  const nodes = useMemo(() => menuNodes(tree.data ?? [], i18n.language), [tree.data, i18n.language]);
  const role = record.data;

  return (
    <RecordPage
      title={role?.name ?? t('role.detailTitle')}
      backTo="/role"
      isPending={record.isPending || tree.isPending}
      error={record.error ?? tree.error}
    >
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
                    { label: t('role.fields.name'), value: role?.name },
                    { label: t('role.fields.type'), value: t(role?.type === 'default' ? 'role.type.default' : 'role.type.new') },
                    { label: t('common.created'), value: formatDateTime(role?.created) },
                    {
                      label: t('role.fields.permissions'),
                      span: 2,
                      value: (
                        <CheckTree
                          readOnly
                          aria-label={t('role.fields.permissions')}
                          nodes={nodes}
                          value={checkedFromRefs(role?.menus)}
                        />
                      ),
                    },
                  ]}
                />
              ),
            },
          ]}
        />
      )}
    </RecordPage>
  );
}
