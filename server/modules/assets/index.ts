import { defineModule } from '../../http/routes.ts';
import type { GatewayDeps } from '../gateways/index.ts';
import { assertNotUsedByAssets } from './usage.ts';
import { csvRoutes } from './csv.ts';
import { assetRoutes } from './routes.ts';
import { tcpingRoutes } from './tcping.ts';

// The face: what other modules may use of this one.
export { SOCKS_PASSWORD } from './fields.ts';
export { assetPage, listFilters, SORTS } from './list.ts';
export { MSG, markAccessed, markReachable, pinFirstHostKey } from './store.ts';


/** Assets, their tags, connectivity tests, CSV import and export (contract §2.5, §3.3, §3.4). */
export default defineModule<GatewayDeps>('assets', (deps) => {
  // Credentials and gateways that assets still use are not deleted: this module answers for its table.
  deps.events.on('credentials.deleting', ({ trx, ids }) => assertNotUsedByAssets(trx, 'credentialId', ids));
  deps.events.on('gateways.deleting', ({ trx, ids }) => assertNotUsedByAssets(trx, 'accessGatewayId', ids));
  return [...assetRoutes(deps), ...tcpingRoutes(deps), ...csvRoutes(deps)];
});
