import { CheckTree, FormDialog, type FormField, useApi, useQuery, useTranslation } from '@/core';
import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useMemo } from 'react';
import { KEYS, roleApi } from '../api';
import { checkedFromRefs, menuNodes, refsFromChecked } from '../menus';
import { errorText, type RecordDialogProps } from './shared';

interface RoleValues extends Record<string, unknown> {
  name: string;
  /** Fully checked menu keys (parents derived by the tree). */
  menus: string[];
}

/** 新建角色 / 更新角色: a name and the permission tree of `GET /menus`. */
export function RoleFormDialog({
  open,
  id,
  onClose,
  onSaved,
}: RecordDialogProps) {
  const { t, i18n } = useTranslation('identity');
  const api = useApi();
  const roles = useMemo(() => roleApi(api), [api]);
  const editing = id !== undefined;

  const tree = useQuery({ queryKey: KEYS.menus, queryFn: roles.menus, enabled: open, staleTime: Number.POSITIVE_INFINITY });
  const record = useQuery({ queryKey: KEYS.role(id ?? ''), queryFn: () => roles.get(id ?? ''), enabled: open && editing, gcTime: 0 });
  const nodes = useMemo(() => menuNodes(tree.data ?? [], i18n.language), [tree.data, i18n.language]);

  const initialValues: RoleValues = useMemo(
    () => (editing && record.data ? { name: record.data.name, menus: checkedFromRefs(record.data.menus) } : { name: '', menus: [] }),
    [editing, record.data],
  );

  const label = t('role.fields.permissions');
  const fields: FormField<RoleValues>[] = [
    { name: 'name', label: t('role.fields.name'), required: true, requiredMessage: t('role.validation.name'), maxLength: 64 },
    {
      name: 'menus',
      label,
      required: true,
      requiredMessage: t('role.validation.permissions'),
      render: (value, onChange) => (
        <CheckTree
          aria-label={label}
          nodes={nodes}
          value={Array.isArray(value) ? (value as string[]) : []}
          onChange={onChange}
        />
      ),
    },
  ];

  const error = tree.error ?? record.error;
  return (
    <FormDialog<RoleValues>
      open={open}
      onClose={onClose}
      width={960}
      title={t(editing ? 'role.editTitle' : 'role.newTitle')}
      fields={fields}
      initialValues={initialValues}
      loading={tree.isPending || (editing && record.isPending)}
      footer={
        error ? (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{errorText(error)}</MessageBarBody>
          </MessageBar>
        ) : undefined
      }
      onSubmit={async (v) => {
        const body = { name: v.name.trim(), menus: refsFromChecked(nodes, v.menus) };
        if (editing) await roles.update(id, body);
        else await roles.create(body);
        await onSaved();
      }}
    />
  );
}
