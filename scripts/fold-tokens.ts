// Vite build plugin: Fluent's design tokens folded to the strings they are. `tokens.colorNeutralForeground1` is always
// `var(--colorNeutralForeground1)` (@fluentui/tokens; the theme itself travels as CSS variables, scripts/theme-css.ts),
// but any read of the `tokens` object keeps the whole object (467 entries, ≈2 KB gzip) in the chunk that reads it.
// Fluent's own style modules leave such reads in the login screen's vendor chunk — constants its ahead-of-time styles no
// longer use, such as `` `calc(${tokens.strokeWidthThin} + 0.25px)` `` — which the tree-shaker keeps (a template
// literal converts its value to a string). Folded, they are constant strings, dropped when unused, and the object
// leaves the build when nothing reads it by a computed name. The values come from the object itself: no drift.
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

export type TokenValues = Readonly<Record<string, string>>;

/**
 * Fluent's tokens object, as @fluentui/react-components reaches it (@fluentui/tokens is its dependency, not ours):
 * loaded on demand, so that loading vite.config.ts (every vitest run) does not load Fluent.
 */
export function fluentTokens(): TokenValues {
  const components = createRequire(import.meta.url).resolve('@fluentui/react-components');
  const theme = createRequire(components).resolve('@fluentui/react-theme');
  return (createRequire(theme)('@fluentui/tokens') as { tokens: TokenValues }).tokens;
}

/** `import { tokens } from '@fluentui/react-theme'` (or another Fluent package that exports it), nothing renamed. */
const IMPORTS_TOKENS = /import\s*\{[^}]*(?<![\w$])tokens(?![\w$])(?!\s+as\b)[^}]*\}\s*from\s*['"]@fluentui\/(?:react-theme|tokens|react-components)['"]/;
/** Another binding of the name in the module (a parameter, a local), which would make a fold wrong. */
const REBINDS = /(?:\b(?:const|let|var|function|class)\s+tokens\b|[(,]\s*tokens\s*[,)=])/;
const READ = /(?<![\w$.])tokens\.([A-Za-z_$][\w$]*)/g;

/** The module's source with every `tokens.<name>` of a known token replaced by its string; unchanged when it does not import `tokens` as such. */
export function foldTokens(code: string, values: TokenValues): string {
  if (!code.includes('tokens.') || !IMPORTS_TOKENS.test(code) || REBINDS.test(code)) return code;
  return code.replace(READ, (read, name: string) => (Object.hasOwn(values, name) ? JSON.stringify(values[name]) : read));
}

/** Build only: Fluent's packages and our modules. */
export function foldTokensPlugin(): Plugin {
  let values: TokenValues | null = null;
  return {
    name: 'jumpgate-fold-tokens',
    apply: 'build',
    transform(code, id) {
      if (!/\.[jt]sx?$/.test(id.replace(/\?.*$/, ''))) return undefined;
      if (!code.includes('tokens.')) return undefined;
      values ??= fluentTokens();
      const folded = foldTokens(code, values);
      return folded === code ? undefined : { code: folded, map: null };
    },
  };
}
