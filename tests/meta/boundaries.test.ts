import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkImport, iconImportProblems, importsOf } from './boundaryRules';

const repo = join(__dirname, '..', '..');

function walk(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return walk(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

function violations(files: string[]): string[] {
  return files.flatMap((file) => {
    const rel = relative(repo, file).split(sep).join('/');
    return importsOf(readFileSync(file, 'utf8')).flatMap((spec) => {
      const problem = checkImport(rel, spec);
      return problem ? [`${rel}: ${problem}`] : [];
    });
  });
}

describe('import boundaries', () => {
  it('plugins import only @/core, their own folder and the allowed libraries; core never imports plugins', () => {
    const files = [...walk(join(repo, 'plugins')), ...walk(join(repo, 'core')), ...walk(join(repo, 'docs', 'examples'))];
    expect(violations(files)).toEqual([]);
  });

  it('console code takes each icon from its own module, not from the @fluentui/react-icons root', () => {
    const files = [...walk(join(repo, 'plugins')), ...walk(join(repo, 'core')), ...walk(join(repo, 'docs', 'examples'))].filter(
      (file) => !/\.test\.tsx?$/.test(file),
    );
    const problems = files.flatMap((file) => iconImportProblems(readFileSync(file, 'utf8')).map((p) => `${relative(repo, file)}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('plugin tests may use @/core/testing but not other plugins or core internals', () => {
    expect(violations(walk(join(repo, 'tests', 'plugins')))).toEqual([]);
  });

  describe('the rules themselves', () => {
    const cases: [string, string, RegExp | null][] = [
      ['plugins/asset/pages.tsx', '@/core', null],
      ['plugins/asset/pages.tsx', './components/Table', null],
      ['plugins/asset/components/Table.tsx', '../api', null],
      ['plugins/asset/pages.tsx', '@fluentui/react-components', null],
      ['plugins/asset/pages.tsx', 'react-router-dom', null],
      ['plugins/asset/pages.tsx', '../identity/pages', /another plugin/],
      ['plugins/asset/pages.tsx', '../../plugins/identity', /another plugin/],
      ['plugins/asset/pages.tsx', '@/core/session/store', /core internal/],
      ['plugins/asset/manifest.ts', '@/core/manifest', null],
      ['plugins/asset/manifest.ts', '@/core', /only @\/core\/manifest/],
      ['plugins/asset/manifest.ts', 'react', /only @\/core\/manifest/],
      ['plugins/asset/manifest.ts', './api', /only @\/core\/manifest/],
      ['plugins/asset/index.ts', '@/core/manifest', null],
      ['plugins/asset/pages.tsx', '../../core/api/client', /core internal/],
      ['plugins/asset/pages.tsx', '@/core/testing', /only in tests/],
      ['plugins/asset/asset.test.tsx', '@/core/testing', null],
      ['tests/plugins/asset/list.test.tsx', '@/core/testing', null],
      ['tests/plugins/asset/list.test.tsx', '../../../plugins/asset', null],
      ['tests/plugins/asset/list.test.tsx', '../../../plugins/identity', /another plugin/],
      ['tests/plugins/asset/list.test.tsx', '../../../core/api/client', /core internal/],
      ['plugins/asset/api.ts', 'axios', /not allowed/],
      ['plugins/asset/api.ts', 'i18next', /not allowed/],
      ['plugins/asset/api.ts', '@tanstack/react-query', /not allowed/],
      ['core/app/routes.tsx', '../../plugins/asset', /core must not import plugins/],
      ['core/app/routes.tsx', 'axios', null],
    ];
    for (const [file, spec, expected] of cases) {
      it(`${file} → ${spec}`, () => {
        const result = checkImport(file, spec);
        if (expected === null) expect(result).toBeNull();
        else expect(result).toMatch(expected);
      });
    }

    it('flags value imports from the icons root, not type imports or icon modules', () => {
      expect(iconImportProblems(`import { PersonRegular, type FluentIcon } from '@fluentui/react-icons';`)).toEqual([
        `imports PersonRegular from '@fluentui/react-icons'; use '@fluentui/react-icons/svg/<name>'`,
      ]);
      expect(iconImportProblems(`import type { FluentIcon } from '@fluentui/react-icons';`)).toEqual([]);
      expect(iconImportProblems(`import { PersonRegular } from '@fluentui/react-icons/svg/person';`)).toEqual([]);
    });

    it('finds static, dynamic, re-export and side-effect imports', () => {
      const source = `import a from 'x';\nimport type { B } from "y";\nexport * from './z';\nimport 'side';\nconst m = () => import('./pages');\nexport { c } from '@/core';`;
      expect(importsOf(source).sort()).toEqual(['./pages', './z', '@/core', 'side', 'x', 'y'].sort());
    });
  });
});
