// The public plugin API as a reviewed type surface (an API report, as Headlamp and Backstage keep): every export of
// `core/index.ts` with its declared type. tests/core/public-api.test.ts compares it with docs/api/core.api.md, so a
// change of the plugin contract shows in review. `npm run api-report` rewrites that file after a deliberate change.
//
// TypeScript 7 (the project's compiler) has no JS API: it only emits the declarations; API Extractor, which brings its
// own TypeScript, reads them and writes the report.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import apiExtractor, { type ExtractorMessage } from '@microsoft/api-extractor';

// A CommonJS package: its named exports come through the default import.
const { Extractor, ExtractorConfig, ExtractorLogLevel } = apiExtractor;

const REPO = join(import.meta.dirname, '..');
export const API_REPORT_FILE = join(REPO, 'docs', 'api', 'core.api.md');

/** Builds the report of core's public entry and returns its text. */
export function buildApiReport(): string {
  // Inside the repository (ignored `.tmp/`), so the declarations resolve `react`, `@fluentui/…` like the sources do;
  // not under node_modules, which API Extractor would take for another package.
  const work = join(REPO, '.tmp', 'api-report');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  execFileSync(join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', join(REPO, 'scripts', 'tsconfig.api-report.json'), '--outDir', join(work, 'dts')], {
    stdio: 'pipe',
  });
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: work,
      mainEntryPointFilePath: join(work, 'dts', 'core', 'index.d.ts'),
      bundledPackages: [],
      compiler: {
        overrideTsconfig: {
          compilerOptions: { strict: true, skipLibCheck: true, moduleResolution: 'bundler', module: 'esnext', target: 'es2022', jsx: 'react-jsx', lib: ['es2022', 'dom'] },
          files: [join(work, 'dts', 'core', 'index.d.ts')],
        },
      },
      apiReport: { enabled: true, reportFileName: 'core.api.md', reportFolder: work, reportTempFolder: work },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // Report the surface only; documentation-comment style is not checked here.
        tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
        // Kept in the report: types the surface uses but core does not export (ae-forgotten-export) and the like.
        // Left out: release tags (one package, no @beta/@public staging) and "undocumented" notes.
        extractorMessageReporting: {
          default: { logLevel: ExtractorLogLevel.None, addToApiReportFile: true },
          'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
          'ae-undocumented': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
        },
        compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(REPO, 'package.json'),
  });
  const problems: string[] = [];
  Extractor.invoke(config, {
    localBuild: true,
    messageCallback: (message: ExtractorMessage) => {
      if (message.category === 'Compiler') problems.push(message.formatMessageWithLocation(work));
      message.handled = true;
    },
  });
  if (problems.length > 0) throw new Error(`API report: the declarations do not compile:\n${problems.join('\n')}`);
  return readFileSync(join(work, 'core.api.md'), 'utf8');
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  mkdirSync(dirname(API_REPORT_FILE), { recursive: true });
  writeFileSync(API_REPORT_FILE, buildApiReport());
  console.log(`wrote ${API_REPORT_FILE}`);
}
