import { Button, makeStyles, mergeClasses, Tooltip, tokens } from '@fluentui/react-components';
import { CopyRegular } from '@fluentui/react-icons/svg/copy';
import { useOptionalCore } from '../app/context';
import { useUiT } from './i18n';

const useStyles = makeStyles({
  root: { display: 'inline-flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXXS, maxWidth: '100%' },
  text: { minWidth: 0 },
  clip: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  mono: { fontFamily: tokens.fontFamilyMonospace },
});

export interface CopyTextProps {
  /** The text shown and copied. */
  text: string;
  /** Accessible name of the copy button (default 复制), e.g. 复制「deploy」的内容 when a table has many. */
  copyLabel?: string;
  /** A fixed-width font (commands, keys). */
  monospace?: boolean;
  /** Cuts the text to one line of this width with an ellipsis; the whole text shows in a tooltip. */
  maxWidth?: number | string;
}

/** A text with a button that copies it to the clipboard, saying 已复制 (or that it could not). */
export function CopyText({ text, copyLabel, monospace, maxWidth }: CopyTextProps) {
  const styles = useStyles();
  const t = useUiT();
  // Outside the console (a leaf test) there is no bus: the copy still happens, silently.
  const bus = useOptionalCore()?.bus;
  const clipped = maxWidth !== undefined;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      bus?.emit('notify', { intent: 'success', message: t('ui.copy.done') });
    } catch {
      // No clipboard (an insecure origin, a refused permission): say so rather than pretend.
      bus?.emit('notify', { intent: 'error', message: t('ui.copy.failed') });
    }
  };

  const shown = (
    <span className={mergeClasses(styles.text, clipped && styles.clip, monospace && styles.mono)} style={clipped ? { maxWidth } : undefined}>
      {text}
    </span>
  );
  return (
    <span className={styles.root}>
      {clipped ? (
        <Tooltip content={text} relationship="description">
          {shown}
        </Tooltip>
      ) : (
        shown
      )}
      <Tooltip content={t('ui.copy.action')} relationship="label">
        <Button appearance="transparent" size="small" icon={<CopyRegular />} aria-label={copyLabel ?? t('ui.copy.action')} onClick={() => void copy()} />
      </Tooltip>
    </span>
  );
}
