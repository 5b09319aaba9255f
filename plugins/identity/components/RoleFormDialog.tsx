import { CheckTree, FormDialog, type RecordDialog, useEndpoints, useQuery, useTranslation } from '@/core';
import { useMemo } from 'react';
import { KEYS, type Role, roleApi } from '../api';
import { checkedFromRefs, menuNodes, refsFromChecked } from '../menus';

/** 新建角色 / 更新角色: a name and the permission tree of `GET /menus` (fully checked keys; parents derived by the tree). */
export function RoleFormDialog({ dialog, onSaved }: { dialog: RecordDialog; onSaved: () => Promise<void> }) {
  const { t, i18n } = useTranslation('identity');
  const roles = useEndpoints(roleApi);
  const { id } = dialog;
  const tree = useQuery({ queryKey: KEYS.menus, queryFn: roles.menus, enabled: dialog.open, staleTime: Number.POSITIVE_INFINITY });
  const nodes = useMemo(() => menuNodes(tree.data ?? [], i18n.language), [tree.data, i18n.language]);
  const label = t('role.fields.permissions');

  return (
    <FormDialog<{ name: string; menus: string[] }, Role>
      open={dialog.open}
      onClose={dialog.close}
      width={960}
      title={t(id === undefined ? 'role.newTitle' : 'role.editTitle')}
      initialValues={{ name: '', menus: [] }}
      record={
        id === undefined
          ? undefined
          : { queryKey: KEYS.role(id), load: () => roles.get(id), toValues: (r) => ({ name: r.name, menus: checkedFromRefs(r.menus) }) }
      }
      loading={tree.isPending}
      error={tree.error}
      fields={[
        { name: 'name', label: t('role.fields.name'), required: true, requiredMessage: t('role.validation.name'), maxLength: 64 },
        {
          name: 'menus',
          label,
          required: true,
          requiredMessage: t('role.validation.permissions'),
          render: (value, onChange) => (
            <CheckTree aria-label={label} nodes={nodes} value={Array.isArray(value) ? (value as string[]) : []} onChange={onChange} />
          ),
        },
      ]}
      onSubmit={async (v) => {
        const body = { name: v.name.trim(), menus: refsFromChecked(nodes, v.menus) };
        await (id === undefined ? roles.create(body) : roles.update(id, body));
        await onSaved();
      }}
    />
  );
}
