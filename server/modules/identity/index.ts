import { defineModule } from '../../http/routes.ts';
import { groupRoutes } from './groups.ts';
import { roleRoutes } from './roles.ts';
import { userRoutes } from './users.ts';

/** Users, roles and user groups (contract §2.3, §2.4, §2.20). */
export default defineModule('identity', (deps) => [...userRoutes(deps), ...roleRoutes(deps), ...groupRoutes(deps)]);
