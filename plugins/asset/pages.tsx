// The lazy facade of the asset plugin: one named export per page.
export { CommandList } from './components/command/CommandList';
export { AccessGatewayList } from './components/gateway/AccessGatewayList';
