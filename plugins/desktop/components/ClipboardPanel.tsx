import { useBus, useTranslation } from '@/core';
import { Button, Field, Text, Textarea } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons/svg/dismiss';
import { useState } from 'react';
import { useFrameStyles } from './styles';

export interface ClipboardPanelProps {
  /** The strategy lets the remote clipboard reach the browser. */
  canCopy: boolean;
  /** The strategy lets the browser's text reach the remote clipboard. */
  canPaste: boolean;
  /** What the remote last copied ('' for nothing yet). */
  remoteText: string;
  /** Sends text to the remote clipboard. */
  onSend: (text: string) => void;
  onClose: () => void;
}

/** The clipboard side panel: remote → local when `copy` is allowed, local → remote when `paste` is, each else disabled with why. */
export function ClipboardPanel({ canCopy, canPaste, remoteText, onSend, onClose }: ClipboardPanelProps) {
  const { t } = useTranslation('desktop');
  const styles = useFrameStyles();
  const bus = useBus();
  const [local, setLocal] = useState('');

  const copyLocal = () => {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (typeof clipboard?.writeText !== 'function') {
      bus.emit('notify', { intent: 'warning', message: t('clipboard.copyFailed') });
      return;
    }
    clipboard.writeText(remoteText).then(
      () => bus.emit('notify', { intent: 'success', message: t('clipboard.copied') }),
      () => bus.emit('notify', { intent: 'warning', message: t('clipboard.copyFailed') }),
    );
  };

  return (
    <aside className={styles.side} aria-label={t('clipboard.title')}>
      <div style={{ display: 'flex', alignItems: 'center' }}>
        <Text weight="semibold" className={styles.grow}>
          {t('clipboard.title')}
        </Text>
        <Button appearance="subtle" icon={<DismissRegular />} aria-label={t('clipboard.close')} onClick={onClose} />
      </div>
      <Field label={t('clipboard.remote')} hint={canCopy ? undefined : t('clipboard.copyForbidden')}>
        <Textarea readOnly disabled={!canCopy} value={canCopy ? remoteText : ''} placeholder={canCopy ? t('clipboard.remoteEmpty') : ''} resize="vertical" rows={5} />
      </Field>
      <Button disabled={!canCopy || remoteText === ''} onClick={copyLocal}>
        {t('clipboard.copyLocal')}
      </Button>
      <Field label={t('clipboard.local')} hint={canPaste ? undefined : t('clipboard.pasteForbidden')}>
        <Textarea disabled={!canPaste} value={local} onChange={(_, d) => setLocal(d.value)} resize="vertical" rows={5} />
      </Field>
      <Button
        appearance="primary"
        disabled={!canPaste || local === ''}
        onClick={() => {
          onSend(local);
          bus.emit('notify', { intent: 'success', message: t('clipboard.sent') });
        }}
      >
        {t('clipboard.send')}
      </Button>
    </aside>
  );
}
