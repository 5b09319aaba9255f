import { FormDialog, type FormItem, useEndpoints, useTranslation } from '@/core';
import { useValidityFields } from '@/domain';
import { GRANT_KEYS, grantApi, type Grantee } from './api';

interface Values extends Record<string, unknown> {
  ids: string[];
  strategyId: string;
  validFrom: string;
  validUntil: string;
}

const EMPTY: Values = { ids: [], strategyId: '', validFrom: '', validUntil: '' };

export interface GrantDialogProps {
  open: boolean;
  who: Grantee;
  assetId: string;
  onClose: () => void;
  onGranted: () => Promise<void>;
}

/** 用户授权 / 用户组授权: whom (those already granted shown but not offered), with which strategy, for how long. */
export function GrantDialog({ open, who, assetId, onClose, onGranted }: GrantDialogProps) {
  const { t } = useTranslation('asset');
  const grants = useEndpoints(grantApi);
  const validity = useValidityFields<Values>({ from: 'validFrom', until: 'validUntil' });
  const fields: FormItem<Values>[] = [
    {
      name: 'ids',
      label: t(who === 'user' ? 'grants.dialog.users' : 'grants.dialog.groups'),
      type: 'multiselect',
      searchable: true,
      required: true,
      requiredMessage: t(who === 'user' ? 'grants.dialog.usersRequired' : 'grants.dialog.groupsRequired'),
      remoteOptions: { queryKey: GRANT_KEYS.choices(assetId, who), load: () => grants.choices(who, assetId) },
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
    <FormDialog<Values>
      open={open}
      onClose={onClose}
      title={t(who === 'user' ? 'grants.dialog.userTitle' : 'grants.dialog.groupTitle')}
      initialValues={EMPTY}
      fields={fields}
      onSubmit={async (v) => {
        await grants.bind(who, assetId, { ids: v.ids, strategyId: v.strategyId, validFrom: v.validFrom, validUntil: v.validUntil });
        await onGranted();
      }}
    />
  );
}
