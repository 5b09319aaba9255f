import { FormDialog, useEndpoints, useTranslation } from '@/core';
import { ASSET_KEYS, type AssetRow, assetApi } from './api';

const EMPTY = { owner: '' };

/** 更换所有者: one choice among the users (by nickname), starting from the current owner. */
export function ChangeOwnerDialog({ asset, onClose, onSaved }: { asset: AssetRow | null; onClose: () => void; onSaved: () => Promise<void> }) {
  const { t } = useTranslation('asset');
  const assets = useEndpoints(assetApi);
  return (
    <FormDialog<typeof EMPTY>
      open={asset !== null}
      onClose={onClose}
      title={t('asset.changeOwner.title')}
      initialValues={{ owner: asset?.owner ?? '' }}
      fields={[
        {
          name: 'owner',
          label: t('asset.fields.owner'),
          type: 'select',
          required: true,
          requiredMessage: t('asset.validation.owner'),
          remoteOptions: { queryKey: ASSET_KEYS.users, load: assets.users },
        },
      ]}
      onSubmit={async ({ owner }) => {
        if (!asset) return;
        await assets.changeOwner(asset.id, owner);
        await onSaved();
      }}
    />
  );
}
