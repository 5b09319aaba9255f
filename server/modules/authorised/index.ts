import { defineModule } from '../../http/routes.ts';
import { pagingRoutes } from './paging.ts';
import { bindRoutes } from './routes.ts';

// The face: what other modules may use of this one.
export { assertMayAuthorise } from './store.ts';


/** Authorisations (contract §2.21, §3.19): bind, unbind, the three lists, `selected`, and explain. */
export default defineModule('authorised', (deps) => [...bindRoutes(deps), ...pagingRoutes(deps)]);
