import { StatusBadge, useTranslation } from '@/core';
import { makeStyles, mergeClasses, tokens, Tooltip } from '@fluentui/react-components';
import type { Protocol } from './api';
import { isProtocol } from './protocols';

// 1.3.9's protocol colours (rdp cyan, ssh blue, telnet geekblue, vnc purple, kubernetes volcano) in Fluent's palette.
const useStyles = makeStyles({
  badge: {
    display: 'inline-block',
    padding: `0 ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase200,
    whiteSpace: 'nowrap',
  },
  rdp: {
    color: tokens.colorPaletteLightTealForeground2,
    backgroundColor: tokens.colorPaletteLightTealBackground2,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorPaletteLightTealBorderActive}`,
  },
  ssh: { color: tokens.colorPaletteBlueForeground2, backgroundColor: tokens.colorPaletteBlueBackground2, border: `${tokens.strokeWidthThin} solid ${tokens.colorPaletteBlueBorderActive}` },
  telnet: { color: tokens.colorPaletteNavyForeground2, backgroundColor: tokens.colorPaletteNavyBackground2, border: `${tokens.strokeWidthThin} solid ${tokens.colorPaletteNavyBorderActive}` },
  vnc: {
    color: tokens.colorPalettePurpleForeground2,
    backgroundColor: tokens.colorPalettePurpleBackground2,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorPalettePurpleBorderActive}`,
  },
  kubernetes: {
    color: tokens.colorPalettePumpkinForeground2,
    backgroundColor: tokens.colorPalettePumpkinBackground2,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorPalettePumpkinBorderActive}`,
  },
  unknown: { color: tokens.colorNeutralForeground2, border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}` },
});

/** The protocol as a coloured label. */
export function ProtocolBadge({ protocol }: { protocol: Protocol | string }) {
  const styles = useStyles();
  const { t } = useTranslation('asset');
  const known = isProtocol(protocol);
  return (
    <span className={mergeClasses(styles.badge, known ? styles[protocol] : styles.unknown)}>{known ? t(`asset.protocols.${protocol}`) : protocol}</span>
  );
}

/**
 * 运行中 / 不可用 (the last check's message as a tooltip) / 未检测 (inactive without a message: never checked since
 * it was made or moved) / 测试中 while a check runs.
 */
export function AssetStatus({ active, message, testing }: { active: boolean | undefined; message?: string; testing?: boolean }) {
  const { t } = useTranslation('asset');
  if (testing) return <StatusBadge tone="processing">{t('asset.status.testing')}</StatusBadge>;
  if (active) return <StatusBadge tone="success">{t('asset.status.active')}</StatusBadge>;
  if (!message) return <StatusBadge tone="default">{t('asset.status.unchecked')}</StatusBadge>;
  const badge = <StatusBadge tone="error">{t('asset.status.inactive')}</StatusBadge>;
  return (
    <Tooltip content={message} relationship="description" withArrow>
      <span>{badge}</span>
    </Tooltip>
  );
}
