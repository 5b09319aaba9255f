import { defineModule, route } from '../../http/routes.ts';

export default defineModule('branding', ({ config }) => [
  route({ method: 'GET', path: '/branding', allow: 'anonymous', handler: () => config.brand }),
]);
