// Vite build plugin: the menu icons the descriptors load (`icon: () => import('@fluentui/react-icons/svg/<name>')…`)
// come from one generated module, so a layout's first screen fetches them in one request instead of one (or two) per
// icon. A codeSplitting group cannot do it: rolldown keeps a small forwarding chunk per dynamically imported module.
// The descriptors keep their own import (dev server and tests are unchanged); the build rewrites each one to
// `import('virtual:jumpgate-menu-icons').then((m) => m.default['<key>'])`, which resolves to the same value. The usual
// form `import('…/svg/person').then((m) => m.PersonRegular)` keeps only that export (an icon module holds every size
// and style: the whole modules would be ~6× the bytes); another form gets the module's namespace.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, parse } from 'es-module-lexer';
import type { Plugin } from 'vite';

export const MENU_ICONS_ID = 'virtual:jumpgate-menu-icons';
const RESOLVED_ID = `\0${MENU_ICONS_ID}`;
const ICON_MODULE = /^@fluentui\/react-icons\//;
const DESCRIPTOR = /\/plugins\/[a-z][a-z0-9-]*\/index\.ts$/;

interface IconImport {
  specifier: string;
  /** The one export taken by a `.then((m) => m.Name)` right after the import; null: the whole module. */
  name: string | null;
  /** Bounds of `import('…')` (and of its `.then(…)` when `name` is set) in the source. */
  start: number;
  end: number;
}

const PICK = /^\s*\.then\(\s*\(?\s*([A-Za-z_$][\w$]*)\s*\)?\s*=>\s*\1\.([A-Za-z_$][\w$]*)\s*\)/;

/** The dynamic imports of icon modules in a descriptor's source. */
export async function iconImports(code: string): Promise<IconImport[]> {
  await init;
  const [imports] = parse(code);
  return imports.flatMap((entry) => {
    if (entry.d < 0 || entry.n === undefined || !ICON_MODULE.test(entry.n)) return [];
    const pick = PICK.exec(code.slice(entry.se));
    return [{ specifier: entry.n, name: pick?.[2] ?? null, start: entry.ss, end: entry.se + (pick ? pick[0].length : 0) }];
  });
}

const keyOf = (icon: Pick<IconImport, 'specifier' | 'name'>) => (icon.name ? `${icon.specifier}#${icon.name}` : icon.specifier);

export function menuIcons(root: string): Plugin {
  let icons: Pick<IconImport, 'specifier' | 'name'>[] = [];
  return {
    name: 'jumpgate-menu-icons',
    apply: 'build',
    async buildStart() {
      const found = new Map<string, Pick<IconImport, 'specifier' | 'name'>>();
      const pluginsDir = join(root, 'plugins');
      for (const id of readdirSync(pluginsDir)) {
        let code: string;
        try {
          code = readFileSync(join(pluginsDir, id, 'index.ts'), 'utf8');
        } catch {
          continue; // not a plugin folder
        }
        for (const icon of await iconImports(code)) found.set(keyOf(icon), { specifier: icon.specifier, name: icon.name });
      }
      icons = [...found.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, icon]) => icon);
    },
    resolveId: (id) => (id === MENU_ICONS_ID ? RESOLVED_ID : undefined),
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      const imports = icons.map(({ specifier, name }, i) =>
        name ? `import { ${name} as icon${i} } from ${JSON.stringify(specifier)};` : `import * as icon${i} from ${JSON.stringify(specifier)};`,
      );
      // An array: descriptors name an icon by its index, not by its module path and name (every descriptor is in the
      // entry, which the login screen pays for: the paths cost ≈ 0.3 KB gzip there).
      return `${imports.join('\n')}\nexport default [${icons.map((_, i) => `icon${i}`).join(', ')}];\n`;
    },
    async transform(code, id) {
      if (!DESCRIPTOR.test(id)) return undefined;
      const found = await iconImports(code);
      if (found.length === 0) return undefined;
      let out = '';
      let at = 0;
      for (const icon of found) {
        const index = icons.findIndex((known) => keyOf(known) === keyOf(icon));
        if (index < 0) throw new Error(`menu-icons: ${keyOf(icon)} in ${id} was not found at build start`);
        out += `${code.slice(at, icon.start)}import(${JSON.stringify(MENU_ICONS_ID)}).then((m) => m.default[${index}])`;
        at = icon.end;
      }
      return { code: out + code.slice(at), map: null };
    },
  };
}
