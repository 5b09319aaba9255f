// The console's and server's import boundaries, checked on the real import graph by dependency-cruiser
// (tests/meta/boundaries.test.ts runs it in `npm test`; docs/CONVENTIONS.md explains the rules).
import { join } from 'node:path';
import type { PluginObj, types as t } from '@babel/core';
import { cruise, type ICruiseResult, type IFlattenedRuleSet } from 'dependency-cruiser';
import { SERVER_RULES } from './serverRules';

export const REPO = join(import.meta.dirname, '..', '..');

/** Libraries a plugin may import (docs/CONVENTIONS.md); axios, i18next and @tanstack go through `@/core`. */
const PLUGIN_LIBRARIES = ['react', 'react-dom', 'react-router-dom', '@fluentui/react-components', '@fluentui/react-charts', '@fluentui/react-icons', 'react-i18next', 'dayjs', 'zustand', '@novnc/novnc'];
const TEST_LIBRARIES = ['vitest', '@testing-library/react', '@testing-library/user-event', '@testing-library/dom', '@testing-library/jest-dom'];
const modulesOf = (names: readonly string[]) => `(^|/)node_modules/(${names.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})/`;

/** A plugin folder: product plugins, the guide's example plugins, and their tests. Group 2 is the plugin id. */
const PLUGIN = '^(plugins|docs/examples)/([^/]+)/';
const TEST_FILE = '(^tests/|\\.test\\.tsx?$)';

export const RULES: IFlattenedRuleSet = {
  forbidden: [
    {
      name: 'plugin-imports-core-internals',
      comment: 'A plugin imports core through its public entries only: `@/core`, `@/shared/manifest` (and `@/core/testing` in its tests).',
      severity: 'error',
      from: { path: PLUGIN, pathNot: TEST_FILE },
      to: { path: '^core/', pathNot: '^core/(index|manifest)\\.ts$' },
    },
    {
      name: 'plugin-test-imports-core-internals',
      comment: 'Plugin tests use `@/core` and the harness `@/core/testing`, nothing else of core.',
      severity: 'error',
      from: { path: `(${PLUGIN}.+\\.test\\.tsx?$|^tests/plugins/)` },
      to: { path: '^core/', pathNot: '^core/(index|manifest|testing/index)\\.ts$' },
    },
    {
      name: 'manifest-imports-more-than-core-manifest',
      comment: 'A plugin manifest is data the server imports without React: it imports `@/shared/manifest` and nothing else.',
      severity: 'error',
      from: { path: `${PLUGIN}manifest\\.ts$` },
      to: { pathNot: '^shared/manifest\\.ts$' },
    },
    {
      name: 'plugin-imports-another-plugin',
      comment: 'Plugins never import each other: cross-plugin links go by URL, events through core’s bus.',
      severity: 'error',
      from: { path: PLUGIN },
      to: { path: '^(plugins|docs/examples)/', pathNot: '^$1/$2/' },
    },
    {
      name: 'plugin-test-imports-another-plugin',
      comment: 'tests/plugins/<id>/ tests the plugin <id> only.',
      severity: 'error',
      from: { path: '^tests/plugins/([^/]+)/' },
      to: { path: '^(plugins|docs/examples)/', pathNot: '^(plugins|docs/examples)/$1/' },
    },
    {
      name: 'core-imports-a-plugin',
      comment: 'Core never names a plugin: it composes what the registry holds.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(plugins|docs/examples)/' },
    },
    {
      name: 'plugin-imports-a-library-it-may-not',
      comment: `A plugin imports only ${PLUGIN_LIBRARIES.join(', ')} (tests also the test libraries).`,
      severity: 'error',
      from: { path: PLUGIN, pathNot: TEST_FILE },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], pathNot: modulesOf(PLUGIN_LIBRARIES) },
    },
    {
      name: 'plugin-test-imports-a-library-it-may-not',
      comment: 'Plugin tests add the test libraries to what plugins may import.',
      severity: 'error',
      from: { path: `(${PLUGIN}.+\\.test\\.tsx?$|^tests/plugins/)` },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
        pathNot: `(${modulesOf(PLUGIN_LIBRARIES)}|${modulesOf(TEST_LIBRARIES)})`,
      },
    },
    {
      name: 'plugin-imports-domain-internals',
      comment: 'A plugin (and its tests) reaches the domain widgets through their entry `@/domain` only.',
      severity: 'error',
      from: { path: `(${PLUGIN}|^tests/plugins/)` },
      to: { path: '^domain/', pathNot: '^domain/index\\.ts$' },
    },
    {
      name: 'domain-imports-core-internals',
      comment: 'The domain widgets build on core through `@/core` only (and on shared/ code such as `@/shared/protocols`).',
      severity: 'error',
      from: { path: '^domain/' },
      to: { path: '^core/', pathNot: '^core/index\\.ts$' },
    },
    {
      name: 'domain-imports-a-plugin',
      comment: 'The domain widgets serve every plugin and know none: what differs comes in as props.',
      severity: 'error',
      from: { path: '^domain/' },
      to: { path: '^(plugins|docs/examples)/' },
    },
    {
      name: 'core-imports-the-domain',
      comment: 'Core is the generic kit under the domain widgets: it never imports them (they import core).',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^domain/' },
    },
    {
      name: 'domain-imports-a-library-it-may-not',
      comment: `The domain widgets import the libraries plugins may (${PLUGIN_LIBRARIES.join(', ')}); the rest goes through \`@/core\`.`,
      severity: 'error',
      from: { path: '^domain/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], pathNot: modulesOf(PLUGIN_LIBRARIES) },
    },
    {
      name: 'icon-from-the-icons-root',
      comment:
        'Icons come from their own module, `@fluentui/react-icons/svg/<name>`, never the package root (types aside): the root ' +
        're-exports icons from big shared modules, and a chunk taking one carries every icon another chunk took from it.',
      severity: 'error',
      from: { path: '^(core|domain|plugins|docs/examples)/', pathNot: TEST_FILE },
      // Type-only imports reach dependency-cruiser as `require` (see typeImportsAsRequire).
      to: { path: '(^|/)node_modules/@fluentui/react-icons/lib/index\\.js$', dependencyTypesNot: ['require'] },
    },
    {
      name: 'no-cycles',
      comment: 'No import cycles in the console or the server.',
      severity: 'error',
      from: { path: '^(core|domain|plugins|server|docs/examples)/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves to a file (bundler virtual modules aside).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^virtual:' },
    },
    ...SERVER_RULES,
  ],
};

/**
 * TypeScript 7 has no JS API, which dependency-cruiser needs to read TypeScript. It reads .ts/.tsx when @swc/core is
 * installed (a dev dependency for that reason only; the swc parser itself is not used), transpiled here by Babel (its
 * `babelConfig` option) and parsed by its default parser. Babel erases type-only imports. They still count here (a plugin may not reach a core internal for its types either, and a
 * type-only cycle is a cycle), so this step first turns each into `require('<module>')`: dependency-cruiser records
 * it as a `require` dependency, and the rules that must ignore types (the icon rule) skip that type.
 */
function typeImportsAsRequire({ types }: { types: typeof t }): PluginObj {
  const asRequire = (source: t.StringLiteral) => types.expressionStatement(types.callExpression(types.identifier('require'), [source]));
  const typeOnlySource = (node: t.Statement): t.StringLiteral | null => {
    if (node.type === 'ImportDeclaration') {
      const inline = node.specifiers.length > 0 && node.specifiers.every((s) => s.type === 'ImportSpecifier' && s.importKind === 'type');
      return node.importKind === 'type' || inline ? node.source : null;
    }
    if ((node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') && node.exportKind === 'type') return node.source ?? null;
    return null;
  };
  return {
    visitor: {
      // On entering the program, before Babel's TypeScript transform (which also works there) erases them.
      Program(path) {
        for (const statement of path.get('body')) {
          const source = typeOnlySource(statement.node);
          if (source) statement.replaceWith(asRequire(source));
        }
      },
    },
  };
}

const BABEL_CONFIG = {
  babelrc: false,
  configFile: false,
  plugins: [typeImportsAsRequire],
  // JSX stays as it is: dependency-cruiser's parser reads JSX.
  presets: [['@babel/preset-typescript', { onlyRemoveTypeImports: true, allowDeclareFields: true }]],
};

/** The folders whose imports are checked. */
export const CHECKED = ['shared', 'core', 'domain', 'plugins', 'server', 'tests/plugins'];

/** Cruises `files` (relative to `root`, the repository by default) with the rules: the violations and the modules seen. */
export async function checkImports(files: readonly string[] = CHECKED, root: string = REPO): Promise<ICruiseResult> {
  const previous = process.cwd();
  process.chdir(root); // dependency-cruiser reports and matches paths relative to the working directory
  try {
    const { output } = await cruise(
      [...files],
      {
        validate: true,
        ruleSet: RULES,
        doNotFollow: { path: 'node_modules' },
        exclude: { path: '^dist/' },
        moduleSystems: ['es6', 'cjs'],
        // A scratch tree (the guide's walkthrough) links core in; its paths stay as seen from that tree.
        preserveSymlinks: true,
      },
      {
        extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
        conditionNames: ['import', 'default'],
        exportsFields: ['exports'],
        alias: {
          '@/core/testing$': join(root, 'core/testing/index.ts'),
          '@/shared/manifest$': join(root, 'shared/manifest.ts'),
          '@/shared/protocols$': join(root, 'shared/protocols.ts'),
          '@/domain$': join(root, 'domain/index.ts'),
          '@/core$': join(root, 'core/index.ts'),
        },
      },
      { babelConfig: BABEL_CONFIG },
    );
    if (typeof output === 'string') throw new Error('dependency-cruiser answered text, expected a result object');
    return output;
  } finally {
    process.chdir(previous);
  }
}

/** One line per violation: `rule: from → to` (a cycle lists its path). */
export function describeViolations(result: ICruiseResult): string[] {
  return result.summary.violations.map((v) => {
    const cycle = v.cycle?.length ? ` (cycle: ${[v.from, ...v.cycle.map((step) => step.name)].join(' → ')})` : '';
    return `${v.rule.name}: ${v.from} → ${v.to}${cycle}`;
  });
}
