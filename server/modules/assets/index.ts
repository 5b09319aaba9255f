import { defineModule } from '../../http/routes.ts';
import { csvRoutes } from './csv.ts';
import { assetRoutes } from './routes.ts';
import { tcpingRoutes } from './tcping.ts';

/** Assets, their tags, connectivity tests, CSV import and export (contract §2.5, §3.3, §3.4). */
export default defineModule('assets', (deps) => [...assetRoutes(deps), ...tcpingRoutes(deps), ...csvRoutes(deps)]);
