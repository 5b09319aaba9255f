import { useApi, useQuery, useTranslation } from '@/core';
import { ProtocolBadge } from '@/domain';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import { useMemo, useState } from 'react';
import { type PickableAsset, pickerApi } from '../api';

const useStyles = makeStyles({
  list: { listStyleType: 'none', paddingLeft: 0, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS, maxHeight: '50vh', overflowY: 'auto', marginTop: tokens.spacingVerticalM },
  row: { justifyContent: 'flex-start', columnGap: tokens.spacingHorizontalS },
  description: { color: tokens.colorNeutralForeground3, marginLeft: tokens.spacingHorizontalS },
});

export interface AssetPickerProps {
  open: boolean;
  onClose: () => void;
  onPick: (asset: PickableAsset) => void;
  /** The portal's list (`/worker/assets/paging`) rather than the admin one. */
  portal: boolean;
}

/** Chooses an SSH or Telnet asset to open in a new tab (the "+" of the tab strip). */
export function AssetPicker({ open, onClose, onPick, portal }: AssetPickerProps) {
  const { t } = useTranslation('terminal');
  const styles = useStyles();
  const api = useApi();
  const assets = useMemo(() => pickerApi(api, portal), [api, portal]);
  const [name, setName] = useState('');
  const [applied, setApplied] = useState('');
  const list = useQuery({ queryKey: ['terminal', 'picker', portal, applied], queryFn: () => assets.list(applied), enabled: open });
  const rows = list.data ?? [];

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('picker.title')}</DialogTitle>
          <DialogContent>
            <Input
              aria-label={t('picker.search')}
              placeholder={t('picker.search')}
              value={name}
              onChange={(_, data) => setName(data.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') setApplied(name.trim());
              }}
            />
            <ul className={styles.list} aria-label={t('picker.title')}>
              {list.isPending ? <Spinner size="small" /> : null}
              {list.isError ? (
                <MessageBar intent="error">
                  <MessageBarBody>{list.error instanceof Error ? list.error.message : ''}</MessageBarBody>
                </MessageBar>
              ) : null}
              {list.isSuccess && rows.length === 0 ? <span>{t('picker.empty')}</span> : null}
              {rows.map((asset) => (
                <li key={asset.id}>
                  <Button appearance="subtle" className={styles.row} onClick={() => onPick(asset)}>
                    {asset.name}
                    <ProtocolBadge protocol={asset.protocol} />
                    {asset.description && asset.description !== '-' ? <span className={styles.description}>{asset.description}</span> : null}
                  </Button>
                </li>
              ))}
            </ul>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('actions.cancel')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
