// The lazy facade of the asset plugin: one named export per page.
// assets
export { AssetDetail } from './components/asset/AssetDetail';
export { AssetList } from './components/asset/AssetList';
// commands, access gateways
export { CommandList } from './components/command/CommandList';
export { AccessGatewayList } from './components/gateway/AccessGatewayList';
