import { posix } from 'node:path';

/** Libraries a plugin may import (docs/CONVENTIONS.md); subpaths allowed (e.g. dayjs/plugin/x). */
const PLUGIN_LIBRARIES = ['react', 'react-dom', 'react-router-dom', '@fluentui/react-components', '@fluentui/react-icons', 'react-i18next', 'dayjs', 'zustand'];
const TEST_LIBRARIES = ['vitest', '@testing-library/react', '@testing-library/user-event', '@testing-library/dom', '@testing-library/jest-dom'];

export function importsOf(source: string): string[] {
  const found = new Set<string>();
  const patterns = [/(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]/g, /import\s*['"]([^'"]+)['"]/g, /import\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) if (match[1]) found.add(match[1]);
  return [...found];
}

function isTestFile(file: string): boolean {
  return /\.test\.tsx?$/.test(file) || file.startsWith('tests/');
}

/** Plugin folder (`plugins/<id>` or `docs/examples/<id>` or tests/plugins/<id>) a file belongs to. */
function pluginOf(file: string): { root: string; id: string } | null {
  const match = file.match(/^(plugins|docs\/examples|tests\/plugins)\/([^/]+)\//);
  return match?.[1] && match[2] ? { root: match[1], id: match[2] } : null;
}

/** Returns why an import breaks the boundaries, or null. Paths are repo-relative with `/`. */
export function checkImport(file: string, spec: string): string | null {
  const owner = pluginOf(file);
  const relativeSpec = spec.startsWith('.');
  const target = relativeSpec ? posix.normalize(posix.join(posix.dirname(file), spec)) : null;

  if (file.startsWith('core/')) {
    if (target?.startsWith('plugins/') || spec.startsWith('@/plugins')) return `core must not import plugins (${spec})`;
    return null;
  }
  if (!owner) return null;

  // A manifest is read by the server at start: only core's React-free manifest module, nothing else.
  if (/^(plugins|docs\/examples)\/[^/]+\/manifest\.ts$/.test(file)) {
    return spec === '@/core/manifest' ? null : `a manifest imports only @/core/manifest (the server loads it without React) (${spec})`;
  }
  if (spec === '@/core' || spec === '@/core/manifest') return null;
  if (spec === '@/core/testing') return isTestFile(file) ? null : `@/core/testing is allowed only in tests (${spec})`;
  if (spec.startsWith('@/core/')) return `imports a core internal (${spec}); use @/core`;
  if (target !== null) {
    if (target === 'core' || target.startsWith('core/')) return `imports a core internal (${spec}); use @/core`;
    const targetPlugin = target.match(/^(?:plugins|docs\/examples)\/([^/]+)/)?.[1];
    if (targetPlugin !== undefined && targetPlugin !== owner.id) return `imports another plugin (${spec})`;
    return null;
  }
  const library = (allowed: string[]) => allowed.some((lib) => spec === lib || spec.startsWith(`${lib}/`));
  if (library(PLUGIN_LIBRARIES)) return null;
  if (isTestFile(file) && library(TEST_LIBRARIES)) return null;
  return `library "${spec}" is not allowed in plugins (axios, i18next, @tanstack go through @/core)`;
}

/**
 * Icons come from their own module, `@fluentui/react-icons/svg/<name>`, never from the package root (types
 * aside). The root re-exports icons from big shared modules that Fluent's components use too; a chunk that
 * needs one of them then carries every icon any other chunk took from the same module, the login screen too.
 */
export function iconImportProblems(source: string): string[] {
  const problems: string[] = [];
  for (const match of source.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]@fluentui\/react-icons['"]/g)) {
    if (match[1]) continue;
    const values = (match[2] ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '' && !name.startsWith('type '));
    if (values.length > 0) problems.push(`imports ${values.join(', ')} from '@fluentui/react-icons'; use '@fluentui/react-icons/svg/<name>'`);
  }
  return problems;
}
