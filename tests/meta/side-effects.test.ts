import fs from 'node:fs';
import path from 'node:path';
import { parseSync } from '@babel/core';
import { describe, expect, it } from 'vitest';
import { CORE_MODULES_WITH_SETUP, coreSideEffects, PURE_FOLDERS } from '../../scripts/side-effects';

// The production build treats core's modules as free of import-time side effects (scripts/side-effects.ts): a
// module that sets something up on import and is not listed loses that set-up in the bundle only, where no unit
// test runs. This finds every core module with a top-level statement that runs on import.
const root = `${path.resolve(__dirname, '../..')}/`;

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Top-level statements that run on import: bare expressions and imports for their effect (`import 'x'`). */
function setupStatements(file: string): string[] {
  const ast = parseSync(fs.readFileSync(file, 'utf8'), {
    filename: file,
    babelrc: false,
    configFile: false,
    presets: ['@babel/preset-typescript', ['@babel/preset-react', { runtime: 'automatic' }]],
  });
  if (!ast) throw new Error(`${file}: no syntax tree`);
  return ast.program.body.flatMap((statement) => {
    const line = statement.loc?.start.line ?? 0;
    if (statement.type === 'ExpressionStatement') return [`line ${line}: expression`];
    if (statement.type === 'ImportDeclaration' && statement.specifiers.length === 0 && statement.importKind !== 'type') {
      return [`line ${line}: import '${statement.source.value}'`];
    }
    return [];
  });
}

describe('core (and shared/, domain/) modules with import-time set-up', () => {
  const files = PURE_FOLDERS.flatMap((folder) => sourcesUnder(path.join(root, folder)));

  it('are exactly the ones the build keeps whole (scripts/side-effects.ts)', () => {
    const found = files.filter((file) => setupStatements(file).length > 0).map((file) => path.relative(root, file).split(path.sep).join('/'));
    expect(found.sort()).toEqual([...CORE_MODULES_WITH_SETUP].sort());
  });

  it("core/ui/dayjs.ts's plugin and locale set-up is kept by the build's tree-shaking", () => {
    const keeps = coreSideEffects(root);
    expect(setupStatements(path.join(root, 'core/ui/dayjs.ts'))).not.toEqual([]);
    expect(keeps(`${root}core/ui/dayjs.ts`)).toBe(true);
    expect(keeps(`${root}core/main.tsx`)).toBe(true);
    expect(keeps(`${root}core/ui/format.ts`)).toBe(false);
    expect(keeps(`${root}domain/AssetBadges.tsx`)).toBe(false);
    expect(keeps(`${root}node_modules/dayjs/dayjs.min.js`)).toBe(true);
  });
});
