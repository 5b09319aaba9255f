import { describe, expect, it } from 'vitest';
import { API_REPORT_FILE, buildApiReport } from '../../scripts/api-report';

// The plugin API is a reviewed surface: a change of any export's type shows in docs/api/core.api.md. After a
// deliberate change, `npm run api-report` (or `vitest -u`) rewrites the file and the diff goes into review.
describe('@/core public API', () => {
  it('matches its reviewed report (docs/api/core.api.md)', async () => {
    await expect(buildApiReport()).toMatchFileSnapshot(API_REPORT_FILE);
  }, 120_000);
});
