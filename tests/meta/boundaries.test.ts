import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKED, checkImports, describeViolations } from './importRules';

// The import boundaries on the real import graph (dependency-cruiser; rules and why in ./importRules.ts).
describe('import boundaries', () => {
  it('hold in core, the domain widgets, plugins, server, the guide’s examples and plugin tests', async () => {
    const result = await checkImports();
    expect(describeViolations(result)).toEqual([]);
    // The check saw the code (not an empty graph): every checked folder has modules.
    for (const folder of CHECKED) expect(result.modules.some((m) => m.source.startsWith(`${folder}/`)), folder).toBe(true);
    // …and read their imports: a value import, a type-only import and the `@/core` alias.
    const edges = (source: string) => result.modules.find((m) => m.source === source)?.dependencies.map((d) => d.resolved) ?? [];
    expect(edges('core/app/routes.tsx')).toContain('core/app/PluginPage.tsx');
    expect(edges('core/navigation/landing.ts')).toContain('core/plugin/registry.ts');
    expect(edges('plugins/login/index.ts')).toContain('core/index.ts');
  }, 60_000);

  it('each rule catches its violation (fixture tree tests/meta/fixtures/graph)', async () => {
    const root = join(import.meta.dirname, 'fixtures', 'graph');
    const result = await checkImports(['core', 'domain', 'plugins', 'server', 'tests/plugins'], root);
    const violations = describeViolations(result).map((line) => line.replace(/(\.\.\/)+node_modules\//, 'node_modules/'));
    expect(violations.sort()).toEqual(
      [
        'core-imports-a-plugin: core/names-a-plugin.ts → plugins/alpha/index.ts',
        'core-imports-the-domain: core/names-the-domain.ts → domain/index.ts',
        'domain-imports-a-library-it-may-not: domain/violations.ts → node_modules/axios/index.js',
        'domain-imports-a-plugin: domain/violations.ts → plugins/beta/index.ts',
        'domain-imports-core-internals: domain/violations.ts → core/internal.ts',
        'plugin-imports-domain-internals: plugins/alpha/uses-domain.ts → domain/part.ts',
        'icon-from-the-icons-root: plugins/alpha/violations.ts → node_modules/@fluentui/react-icons/lib/index.js',
        'manifest-imports-more-than-core-manifest: plugins/beta/manifest.ts → core/index.ts',
        'no-cycles: server/http/first.ts → server/http/second.ts (cycle: server/http/first.ts → server/http/second.ts → server/http/first.ts)',
        'plugin-imports-a-library-it-may-not: plugins/alpha/violations.ts → node_modules/axios/index.js',
        'plugin-imports-another-plugin: plugins/alpha/violations.ts → plugins/beta/index.ts',
        'plugin-imports-core-internals: plugins/alpha/violations.ts → core/internal.ts',
        'plugin-test-imports-another-plugin: tests/plugins/alpha/uses-plugins.ts → plugins/beta/index.ts',
      ].sort(),
    );
  }, 60_000);
});
