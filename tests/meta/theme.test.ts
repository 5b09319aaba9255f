import { webLightTheme } from '@fluentui/react-components';
import { describe, expect, it } from 'vitest';
import { themeCss } from '../../scripts/theme-css';

// The console's theme is a stylesheet (scripts/theme-css.ts) instead of FluentProvider's theme object.
describe('theme stylesheet', () => {
  it("declares every token of Fluent's light theme on :root, with its value", async () => {
    const css = await themeCss();
    expect(css.startsWith(':root{')).toBe(true);
    const declared = new Map([...css.matchAll(/--([A-Za-z0-9]+):([^;]*);/g)].map((m) => [m[1], m[2]]));
    expect(declared.size).toBe(Object.keys(webLightTheme).length);
    for (const [token, value] of Object.entries(webLightTheme)) expect(declared.get(token), token).toBe(String(value));
  });
});
