import { defineModule } from '../../http/routes.ts';
import { pagingRoutes } from './paging.ts';
import { bindRoutes } from './routes.ts';

/** Authorisations (contract §2.21, §3.19): bind, unbind, the three lists, `selected`, and explain. */
export default defineModule('authorised', (deps) => [...bindRoutes(deps), ...pagingRoutes(deps)]);
