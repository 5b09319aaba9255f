import { type FieldOption, FormDialog, useTranslation } from '@/core';

/** The record whose owner changes. */
export interface OwnedRecord {
  id: string;
  name: string;
  owner: string;
}

export interface ChangeOwnerDialogProps {
  /** Open on this record; `null` = closed. */
  record: OwnedRecord | null;
  onClose: () => void;
  /** The choice of users (GET /users), cached under `queryKey`. */
  owners: { queryKey: readonly unknown[]; load: () => Promise<readonly FieldOption[]> };
  /** POST /<records>/:id/change-owner?owner=…; a rejection keeps the dialog open with its message. */
  change: (id: string, owner: string) => Promise<unknown>;
  onChanged: () => Promise<void>;
}

/** 更换所有者: one user picked from all users, the current owner first selected. */
export function ChangeOwnerDialog({ record, onClose, owners, change, onChanged }: ChangeOwnerDialogProps) {
  const { t } = useTranslation('asset');
  return (
    <FormDialog<{ owner: string }>
      open={record !== null}
      onClose={onClose}
      title={t('command.changeOwner.title')}
      initialValues={{ owner: record?.owner ?? '' }}
      fields={[
        {
          name: 'owner',
          label: t('command.changeOwner.owner'),
          type: 'select',
          required: true,
          requiredMessage: t('command.changeOwner.required'),
          remoteOptions: owners,
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
