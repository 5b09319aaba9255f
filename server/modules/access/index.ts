import { defineModule } from '../../http/routes.ts';
import { portalRoutes } from './portal.ts';

/** The portal's asset lists, built on the access rule (rule.ts): who may open what. */
export default defineModule('access', (deps) => [...portalRoutes(deps)]);
