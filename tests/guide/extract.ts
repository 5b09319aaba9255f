// docs/PLUGINS.md as a test fixture: its code blocks tagged `file=<path>` are written, as the guide says, into a
// scratch copy of the repository layout under .tmp/, where the tests type-check, register, grant and render them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// (vitest provides __dirname in every environment, jsdom included)
export const REPO = path.resolve(__dirname, '..', '..');
const GUIDE = path.join(REPO, 'docs', 'PLUGINS.md');

export interface GuideFile {
  /** Repository-relative path the guide names, e.g. `plugins/announcement/manifest.ts`. */
  path: string;
  content: string;
}

/** Every fenced block whose info string carries `file=<path>`, in guide order. */
export function guideFiles(markdown = fs.readFileSync(GUIDE, 'utf8')): GuideFile[] {
  const files: GuideFile[] = [];
  for (const match of markdown.matchAll(/^```\w+ file=(\S+)\n([\s\S]*?)^```$/gm)) {
    const [, file, content] = match;
    if (file && content !== undefined) files.push({ path: file, content });
  }
  return files;
}

export interface ExtractedGuide {
  /** The scratch root: the guide's files at their paths, `server/http` linked to the real one. */
  root: string;
  files: GuideFile[];
  /** The guide's plugin id (the folder of its manifest). */
  pluginId: string;
  at(relative: string): string;
  remove(): void;
}

/** Writes the guide's files into a fresh folder under .tmp/ (git- and lint-ignored, outside tsconfig's include). */
export function extractGuide(): ExtractedGuide {
  const files = guideFiles();
  const manifest = files.find((f) => /^plugins\/[^/]+\/manifest\.ts$/.test(f.path));
  if (!manifest) throw new Error('docs/PLUGINS.md has no `file=plugins/<id>/manifest.ts` block');
  const pluginId = manifest.path.split('/')[1]!;
  fs.mkdirSync(path.join(REPO, '.tmp'), { recursive: true });
  const root = fs.mkdtempSync(path.join(REPO, '.tmp', 'guide-'));
  for (const file of files) {
    const target = path.join(root, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.content);
  }
  return {
    root,
    files,
    pluginId,
    at: (relative) => path.join(root, relative),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * Lets the extracted server module run: it imports the server's helpers relatively (`../../http/routes.ts`), so
 * the scratch tree gets a link to the real `server/http` (Vite follows it to the real files, one module instance).
 */
export function linkServer(guide: ExtractedGuide): void {
  fs.mkdirSync(guide.at('server'), { recursive: true });
  if (!fs.existsSync(guide.at('server/http'))) fs.symlinkSync(path.join(REPO, 'server', 'http'), guide.at('server/http'), 'dir');
}

/**
 * Type-checks the extracted files with the repository's compiler options (before `linkServer`); `rootDirs` lays the
 * scratch tree over the repository, so the guide's relative imports of server helpers resolve as in the real tree.
 * Returns tsc's report, '' when clean.
 */
export function typeCheck(guide: ExtractedGuide): string {
  const config = path.join(guide.root, 'tsconfig.json');
  // The guide's keys type-check as declared, and only they do (the union grows with its manifest, nothing more).
  const keys = guide.files.find((f) => f.path.endsWith('/manifest.ts'))!.content.matchAll(/key: '([a-z0-9-]+)'/g);
  const declared = [...keys].map((m) => `'${m[1]}'`);
  fs.writeFileSync(
    path.join(guide.root, 'guide-keys.ts'),
    `import { useCan } from '@/core';\nexport function useGuideKeys(): void {\n  useCan(${declared.join(', ')});\n  // @ts-expect-error undeclared\n  useCan('${guide.pluginId}-undeclared');\n}\n`,
  );
  const include = ['guide-keys.ts', ...guide.files.filter((f) => /\.tsx?$/.test(f.path)).map((f) => f.path), path.relative(guide.root, path.join(REPO, 'tests', 'setup', 'console.ts'))];
  fs.writeFileSync(config, JSON.stringify({ extends: path.join(REPO, 'tsconfig.json'), compilerOptions: { rootDirs: [guide.root, REPO] }, include }));
  try {
    execFileSync(path.join(REPO, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', config], { cwd: REPO, encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return `${stdout ?? ''}${stderr ?? ''}`.trim() || String(error);
  }
}
