import { makeStyles, mergeClasses, tokens, Tooltip } from '@fluentui/react-components';
import { StatusBadge } from '@/core';
import { isProtocol, PROTOCOLS, type Protocol } from '@/shared/protocols';
import { useDomainT } from './i18n';

/** The protocols an asset may speak (shared/protocols.ts: the server uses the same list). */
export const ASSET_PROTOCOLS = PROTOCOLS;
export type AssetProtocol = Protocol;
export const isAssetProtocol = isProtocol;

/** The protocols as search or form options, with their labels. */
export function useProtocolOptions(): { value: AssetProtocol; label: string }[] {
  const t = useDomainT();
  return ASSET_PROTOCOLS.map((p) => ({ value: p, label: t(`ui.protocols.${p}`) }));
}

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

/** An asset's protocol as a coloured label (an unknown one as plain text in a grey frame). */
export function ProtocolBadge({ protocol }: { protocol: string }) {
  const styles = useStyles();
  const t = useDomainT();
  const known = isAssetProtocol(protocol);
  return (
    <span className={mergeClasses(styles.badge, known ? styles[protocol] : styles.unknown)}>{known ? t(`ui.protocols.${protocol}`) : protocol}</span>
  );
}

export interface AssetStatusProps {
  active: boolean | undefined;
  /** The last check's message (why it is unavailable). */
  message?: string;
  /** A check is under way. */
  testing?: boolean;
}

/**
 * An asset's reachability: 运行中 / 不可用 (the last check's message as a tooltip) / 未检测 (inactive without a
 * message: never checked since it was made or moved) / 测试中 while a check runs.
 */
export function AssetStatus({ active, message, testing }: AssetStatusProps) {
  const t = useDomainT();
  if (testing) return <StatusBadge tone="processing">{t('ui.assetStatus.testing')}</StatusBadge>;
  if (active) return <StatusBadge tone="success">{t('ui.assetStatus.active')}</StatusBadge>;
  if (!message) return <StatusBadge tone="default">{t('ui.assetStatus.unchecked')}</StatusBadge>;
  return (
    <Tooltip content={message} relationship="description" withArrow>
      <span>
        <StatusBadge tone="error">{t('ui.assetStatus.inactive')}</StatusBadge>
      </span>
    </Tooltip>
  );
}
