// Jumpgate's domain widgets: the UI that knows bastion things (assets, protocols, grants and their validity windows,
// strategies, saved commands) and that several plugins show. The ONLY module plugins import from here (`@/domain`).
// It builds on `@/core` (the generic kit) and never on a plugin; core never imports it (docs/CONVENTIONS.md).
export { AccessExplainDialog, STRATEGY_FLAGS } from './AccessExplainDialog';
export type { AccessExplainDialogProps, AccessExplanation, ExplainedGrant, ExplainedStrategy, StrategyFlag } from './AccessExplainDialog';
export { ASSET_PROTOCOLS, AssetStatus, isAssetProtocol, ProtocolBadge, useProtocolOptions } from './AssetBadges';
export type { AssetProtocol, AssetStatusProps } from './AssetBadges';
export { useValidityFields, ValidityBadge, ValidityWindow } from './validity';
export type { ValidityBadgeProps, ValidityFieldsOptions, ValidityState, ValidityWindowProps } from './validity';
export { SavedCommands } from './commands/SavedCommands';
export type { SavedCommandBody, SavedCommandRow, SavedCommandsApi, SavedCommandsKey, SavedCommandsProps } from './commands/SavedCommands';
export { AssetNameCell, assetDescription, useAssetColumns } from './assets/assetColumns';
export type { AssetColumnsKey, AssetColumnsOptions, AssetListRow } from './assets/assetColumns';
export { GrantsTab } from './grants/GrantsTab';
export type { ExplainedPair, GrantsTabKey, GrantsTabProps, GrantTabRow, GrantValues } from './grants/GrantsTab';
export { savedCommandApi } from './commands/api';
export { explainAccess, grantTerms, strategyOptions } from './grants/api';
