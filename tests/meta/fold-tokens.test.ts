import { tokens as componentsTokens } from '@fluentui/react-components';
import { describe, expect, it } from 'vitest';
import { fluentTokens, foldTokens as fold } from '../../scripts/fold-tokens';

const tokens = fluentTokens();
const foldTokens = (code: string) => fold(code, tokens);

describe("fold tokens (console build): Fluent's `tokens.<name>` as the string it is", () => {
  it("folds every read of a known token to the tokens object's own value, in Fluent's modules and ours", () => {
    const fluent = 'import { tokens, typographyStyles } from "@fluentui/react-theme";\nconst pad = `calc(${tokens.strokeWidthThin} + 0.25px)`;\nconst z = tokens.zIndexPopup;';
    expect(foldTokens(fluent)).toBe(
      `import { tokens, typographyStyles } from "@fluentui/react-theme";\nconst pad = \`calc(\${"var(--strokeWidthThin)"} + 0.25px)\`;\nconst z = ${JSON.stringify(tokens.zIndexPopup)};`,
    );
    expect(tokens.zIndexPopup).toMatch(/^var\(--zIndexPopup, \d+\)$/);
    // The very object the console's Fluent exports.
    expect(tokens).toEqual(componentsTokens);
    const ours = "import { Button, tokens } from '@fluentui/react-components';\nexport const style = { color: tokens.colorNeutralForeground1, x: tokens.notAToken, y: a.tokens.colorBrandForeground1 };";
    expect(foldTokens(ours)).toBe(
      "import { Button, tokens } from '@fluentui/react-components';\nexport const style = { color: \"var(--colorNeutralForeground1)\", x: tokens.notAToken, y: a.tokens.colorBrandForeground1 };",
    );
  });

  it('leaves a module alone when its `tokens` is not Fluent\'s', () => {
    for (const code of [
      'const tokens = { colorNeutralForeground1: "red" };\nuse(tokens.colorNeutralForeground1);',
      'import { tokens } from "./my-theme";\nuse(tokens.colorNeutralForeground1);',
      'import { tokens as fluentTokens } from "@fluentui/react-theme";\nuse(tokens.colorNeutralForeground1);',
      'import { tokens } from "@fluentui/react-theme";\nfunction f(tokens) { return tokens.colorNeutralForeground1; }',
    ]) {
      expect(foldTokens(code), code).toBe(code);
    }
  });
});
