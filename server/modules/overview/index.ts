import { z } from 'zod';
import { defineModule, route } from '../../http/routes.ts';
import { systemTimers } from '../../lib/timers.ts';
import { assetsByProtocol, counters, DATE_COUNTER_DAYS, dateCounter } from './counts.ts';
import { createHostReader } from './host.ts';
import { createHostMonitor } from './monitor.ts';
import { recordingSpace } from './recording-space.ts';

/*
 * The dashboard (key `dashboard`: counters, assets by protocol, activity per day) and system monitoring (key
 * `monitoring`: this server's own load, plus the recording folder's free space), contract §2.14. Fixed 1.3.9 quirk 16:
 * today is included, 活跃用户 counts distinct users and 活跃资产 distinct assets; diskIO/netIO are bytes per second.
 */
export default defineModule('overview', ({ db, clock, log, lifecycle, config }) => {
  const monitor = createHostMonitor({ clock, read: createHostReader(), timers: systemTimers, log });
  lifecycle.onClose(() => monitor.stop());

  return [
    route({
      method: 'GET',
      path: '/overview/counter',
      allow: 'granted',
      handler: () => counters(db, clock.now()),
    }),
    route({
      method: 'GET',
      path: '/overview/asset',
      allow: 'granted',
      handler: () => assetsByProtocol(db),
    }),
    route({
      method: 'GET',
      path: '/overview/date-counter',
      allow: 'granted',
      query: z.object({ d: z.enum(['week', 'month']).default('week') }),
      handler: ({ query }) => dateCounter(db, clock.now(), DATE_COUNTER_DAYS[query.d]),
    }),
    route({
      method: 'GET',
      path: '/overview/ps',
      allow: 'granted',
      // Beyond 1.3.9 (additive): `disk.recording`, the recording folder's space and whether it is below the threshold.
      handler: async () => {
        const load = await monitor.load();
        return { ...load, disk: { ...load.disk, recording: await recordingSpace(config) } };
      },
    }),
  ];
});
