import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkImports, describeViolations } from './importRules';
import { SERVER_FLOORS } from './serverRules';

// The server's floors and faces (./serverRules.ts, docs/SERVER.md "Layers"): each rule fires on its fixture, and the
// real tree keeps them (the whole tree is checked in ./boundaries.test.ts).
describe('server import rules', () => {
  it('each rule catches its violation (fixture tree tests/meta/fixtures/server-graph)', async () => {
    const root = join(import.meta.dirname, 'fixtures', 'server-graph');
    const result = await checkImports(['shared', 'core', 'server'], root);
    expect(describeViolations(result).sort()).toEqual(
      [
        'server-lib-imports-up: server/lib/up.ts → server/db/store.ts',
        'server-db-imports-up: server/db/up.ts → server/http/route.ts',
        'server-http-imports-up: server/http/up.ts → server/permissions/keys.ts',
        'server-permissions-imports-up: server/permissions/keys.ts → server/policy/rule.ts',
        'server-policy-imports-up: server/policy/rule.ts → server/modules/alpha/index.ts',
        'server-modules-imports-up: server/modules/alpha/up.ts → server/app.ts',
        'server-module-imports-another-modules-internals: server/modules/alpha/inner.ts → server/modules/beta/store.ts',
        'server-module-calls-sessions: server/modules/beta/calls.ts → server/modules/sessions/index.ts',
        'server-imports-the-console: server/modules/alpha/console.ts → core/thing.ts',
        'shared-imports-a-half: shared/both.ts → server/lib/clean.ts',
      ].sort(),
    );
  }, 60_000);

  it('names every floor of the server: each folder or root file of server/ is on one', async () => {
    const { readdirSync } = await import('node:fs');
    const entries = readdirSync(join(import.meta.dirname, '..', '..', 'server'), { withFileTypes: true }).map((e) => `server/${e.name}${e.isDirectory() ? '/' : ''}`);
    const unplaced = entries.filter((entry) => !SERVER_FLOORS.some((floor) => new RegExp(floor.path).test(entry)));
    expect(unplaced).toEqual([]);
  });
});
