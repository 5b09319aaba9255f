// Vite plugin: `virtual:jumpgate-theme.css`, Fluent's light theme as CSS variables on :root, written at build
// time. The console's FluentProvider then carries no theme object (~6 KB gzip in the entry, turned into a
// <style> tag at start); the stylesheet (~3.3 KB gzip) is loaded before the first paint and reaches portals too.
import type { Plugin } from 'vite';

export const THEME_CSS_ID = 'virtual:jumpgate-theme.css';
const RESOLVED_ID = `\0${THEME_CSS_ID}`;

export async function themeCss(): Promise<string> {
  // Loaded only when the stylesheet is built: the config itself stays light.
  const { webLightTheme } = await import('@fluentui/react-components');
  const declarations = Object.entries(webLightTheme).map(([token, value]) => `--${token}:${String(value)};`);
  return `:root{${declarations.join('')}}\n`;
}

export function themeStylesheet(): Plugin {
  return {
    name: 'jumpgate-theme-css',
    resolveId: (id) => (id === THEME_CSS_ID ? RESOLVED_ID : undefined),
    load: (id) => (id === RESOLVED_ID ? themeCss() : undefined),
  };
}
