// Core's modules are built as having no import-time side effects (vite.config.ts `treeshake.moduleSideEffects`): a
// descriptor importing `definePlugin` from the `@/core` barrel must not drag the whole barrel into the entry chunk.
// The few modules that do set something up when imported are listed here, or the production build drops their
// set-up while the unit tests (which run the sources) still see it: core/ui/dayjs.ts's `dayjs.extend(relativeTime)`
// and its zh-cn locale went missing that way, and every list with a relative time failed with `t.fromNow is not a
// function` in the production bundle only. tests/meta/side-effects.test.ts fails when a core module with top-level
// statements that run on import is missing from this list.

/** Paths relative to the repository root. */
export const CORE_MODULES_WITH_SETUP: readonly string[] = [
  // The console's entry: mounts the app.
  'core/main.tsx',
  // dayjs' relativeTime plugin and zh-cn locale, and the locale following the active language.
  'core/ui/dayjs.ts',
  // Built on its own into index.html's inline boot (scripts/prerender-first-screen.ts), never part of the bundle.
  'core/app/firstScreenBoot.entry.ts',
];

/**
 * The folders held to that rule: core, the code it shares with the server (shared/), and the domain widgets (domain/,
 * a barrel several plugin chunks import from: each should take only the widgets it uses).
 */
export const PURE_FOLDERS: readonly string[] = ['core/', 'shared/', 'domain/'];

/** `treeshake.moduleSideEffects` for the console build: core's, shared/'s and domain/'s modules are pure but for those above. */
export function coreSideEffects(root: string): (id: string) => boolean {
  const setup = new Set(CORE_MODULES_WITH_SETUP.map((file) => `${root}${file}`));
  return (id) => !PURE_FOLDERS.some((folder) => id.startsWith(`${root}${folder}`)) || setup.has(id);
}
