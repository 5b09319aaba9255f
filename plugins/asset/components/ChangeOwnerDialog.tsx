import { type ApiClient, type FieldOption, FormDialog, useEndpoints, useTranslation } from '@/core';

/** The record whose owner changes (an asset, a command). */
export interface OwnedRecord {
  id: string;
  owner: string;
}

/** Every user as a choice of owner, labelled by nickname as 1.3.9 (GET /users), cached once for the plugin. */
const ownerApi = (api: ApiClient) => ({
  owners: async (): Promise<FieldOption[]> =>
    ((await api.get<{ id: string; nickname: string; username?: string }[] | null>('/users', { silent: true })) ?? []).map((u) => ({
      value: u.id,
      label: u.nickname || u.username || u.id,
    })),
});
const OWNERS_KEY = ['asset', 'owner-options'] as const;

export interface ChangeOwnerDialogProps {
  /** Open on this record; `null` = closed. */
  record: OwnedRecord | null;
  onClose: () => void;
  /** POST /<records>/:id/change-owner?owner=…; a rejection keeps the dialog open with its message. */
  change: (id: string, owner: string) => Promise<unknown>;
  onChanged: () => Promise<void>;
}

/** 更换所有者 (assets and commands): one user picked from all users, the current owner first selected. */
export function ChangeOwnerDialog({ record, onClose, change, onChanged }: ChangeOwnerDialogProps) {
  const { t } = useTranslation('asset');
  const { owners } = useEndpoints(ownerApi);
  return (
    <FormDialog<{ owner: string }>
      open={record !== null}
      onClose={onClose}
      title={t('changeOwner.title')}
      initialValues={{ owner: record?.owner ?? '' }}
      fields={[
        {
          name: 'owner',
          label: t('changeOwner.owner'),
          type: 'select',
          required: true,
          requiredMessage: t('changeOwner.required'),
          remoteOptions: { queryKey: OWNERS_KEY, load: owners },
        },
      ]}
      onSubmit={async (v) => {
        if (!record) return;
        await change(record.id, v.owner);
        await onChanged();
      }}
    />
  );
}
