// scripts/menu-icons.ts: the build serves every descriptor's menu icon from one generated module (one request for a
// layout's menu), keeping only the export each descriptor takes.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { iconImports, menuIcons } from '../../scripts/menu-icons';

const root = path.resolve(__dirname, '../..');

type Hook = (this: unknown, ...args: unknown[]) => unknown;
const call = async (hook: unknown, ...args: unknown[]) => (typeof hook === 'function' ? (hook as Hook).call({}, ...args) : (hook as { handler: Hook }).handler.call({}, ...args));

describe('menu icons (console build)', () => {
  it('finds an icon import and the one export its .then takes', async () => {
    const code = "export default { pages: [{ icon: () => import('@fluentui/react-icons/svg/person').then((m) => m.PersonRegular) }, { icon: () => import('@fluentui/react-icons/svg/code') }] };";
    const found = await iconImports(code);
    expect(found.map(({ specifier, name }) => [specifier, name])).toEqual([
      ['@fluentui/react-icons/svg/person', 'PersonRegular'],
      ['@fluentui/react-icons/svg/code', null],
    ]);
    expect(code.slice(found[0]?.start, found[0]?.end)).toBe("import('@fluentui/react-icons/svg/person').then((m) => m.PersonRegular)");
  });

  it("rewrites every shipped descriptor's icons to the one module, which exports exactly those icons", async () => {
    const plugin = menuIcons(root);
    await call(plugin.buildStart);
    const source = String(await call(plugin.load, '\0virtual:jumpgate-menu-icons'));
    const descriptors = fs.readdirSync(path.join(root, 'plugins')).filter((id) => fs.existsSync(path.join(root, 'plugins', id, 'index.ts')));
    let rewritten = 0;
    for (const id of descriptors) {
      const file = path.join(root, 'plugins', id, 'index.ts');
      const code = fs.readFileSync(file, 'utf8');
      const out = (await call(plugin.transform, code, file)) as { code: string } | undefined;
      const icons = await iconImports(code);
      if (icons.length === 0) continue;
      expect(out?.code, id).not.toMatch(/import\(['"]@fluentui\/react-icons/);
      for (const icon of icons) {
        // Each descriptor takes a named icon (not a whole icon module, which holds every size and style)…
        expect(icon.name, `${id}: ${icon.specifier}`).not.toBeNull();
        // …and the generated module imports exactly that export, at the index the descriptor asks for.
        const imported = new RegExp(`import \\{ ${icon.name} as icon(\\d+) \\} from ${JSON.stringify(icon.specifier).replace(/[/.]/g, '\\$&')};`).exec(source);
        expect(imported, `${id}: ${icon.specifier}`).not.toBeNull();
        const index = Number(imported?.[1]);
        expect(out?.code, id).toContain(`import("virtual:jumpgate-menu-icons").then((m) => m.default[${index}])`);
        expect(source).toMatch(new RegExp(`export default \\[(icon\\d+, )*icon${index}(, icon\\d+)*\\];`));
        rewritten += 1;
      }
    }
    expect(rewritten).toBeGreaterThanOrEqual(10);
  });
});
