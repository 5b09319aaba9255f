import { FormDialog, type FormItem, useEndpoints, useQuery, useTranslation } from '@/core';
import { useValidityFields } from '@/domain';
import { GRANT_KEYS, grantApi } from '../api';

interface Values extends Record<string, unknown> {
  userIds: string[];
  userGroupIds: string[];
  assetIds: string[];
  strategyId: string;
  validFrom: string;
  validUntil: string;
}

const EMPTY: Values = { userIds: [], userGroupIds: [], assetIds: [], strategyId: '', validFrom: '', validUntil: '' };

export interface BulkGrantDialogProps {
  open: boolean;
  onClose: () => void;
  /** After the grant: the success message to show (the list reloads). */
  onGranted: (message: string) => Promise<void> | void;
}

/** 授权: several users and/or user groups × several assets, one strategy (optional) and one validity window. */
export function BulkGrantDialog({ open, onClose, onGranted }: BulkGrantDialogProps) {
  const { t } = useTranslation('strategy');
  const grants = useEndpoints(grantApi);
  const validity = useValidityFields<Values>({ from: 'validFrom', until: 'validUntil' });
  // The pickers' options load before the fields show (the fields read them from the same cache): a field waiting for
  // its options is disabled, and the focus would skip to the first one that is not, instead of starting on 用户.
  const choices = [
    useQuery({ queryKey: GRANT_KEYS.choices('users'), queryFn: grants.users, enabled: open }),
    useQuery({ queryKey: GRANT_KEYS.choices('groups'), queryFn: grants.groups, enabled: open }),
    useQuery({ queryKey: GRANT_KEYS.choices('assets'), queryFn: grants.assets, enabled: open }),
    useQuery({ queryKey: GRANT_KEYS.choices('strategies'), queryFn: grants.strategies, enabled: open }),
  ];

  const fields: FormItem<Values>[] = [
    {
      name: 'userIds',
      label: t('grants.dialog.users'),
      type: 'multiselect',
      searchable: true,
      hint: t('grants.dialog.subjectHint'),
      // Users or groups: at least one of the two, asked on the users field (the first one) while no group is chosen.
      required: (values) => values.userGroupIds.length === 0,
      requiredMessage: t('grants.dialog.subjectRequired'),
      remoteOptions: { queryKey: GRANT_KEYS.choices('users'), load: grants.users },
    },
    {
      name: 'userGroupIds',
      label: t('grants.dialog.groups'),
      type: 'multiselect',
      searchable: true,
      remoteOptions: { queryKey: GRANT_KEYS.choices('groups'), load: grants.groups },
    },
    {
      name: 'assetIds',
      label: t('grants.dialog.assets'),
      type: 'multiselect',
      searchable: true,
      required: true,
      requiredMessage: t('grants.dialog.assetsRequired'),
      remoteOptions: { queryKey: GRANT_KEYS.choices('assets'), load: grants.assets },
    },
    {
      name: 'strategyId',
      label: t('grants.dialog.strategy'),
      type: 'select',
      placeholder: t('grants.noStrategy'),
      hint: t('grants.noStrategyHint'),
      remoteOptions: { queryKey: GRANT_KEYS.choices('strategies'), load: grants.strategies },
    },
    validity,
  ];

  return (
    <FormDialog<Values>
      open={open}
      onClose={onClose}
      title={t('grants.dialog.title')}
      okText={t('grants.grant')}
      width={600}
      initialValues={EMPTY}
      loading={choices.some((c) => c.isPending)}
      fields={fields}
      onSubmit={async (v) => {
        const { granted } = await grants.grant(v);
        await onGranted(t('grants.granted', { count: granted }));
      }}
    />
  );
}
