// The entry: descriptors and the early start only, no library. It starts every load the first screen needs
// (core/app/early.ts), then the app chunk (React, Fluent, the router…), which reuses them.
import { startEarly } from './app/early';
import { announceScreen } from '../shared/first-screen.ts';
import { discoverPlugins } from './plugin/discover';
// Fluent's theme as CSS variables (scripts/theme-css.ts): see CoreProvider.
import 'virtual:jumpgate-theme.css';

// No `vite:preloadError` listener that cancels the event: cancelled, Vite's preload helper makes a failed import()
// resolve with undefined instead of rejecting, and every caller then trips over undefined (a language switch threw,
// a plugin page logged a TypeError). A failed chunk rejects; its users handle it (ChunkLoader: retry, or reload
// after a deploy; the language switch: a message, the language kept).

/** `<div id="root">`. A signed-in visit starts this entry while the page still parses (index.html's boot): then it
 * may not be there yet, and is once the document has parsed. */
async function rootElement(): Promise<HTMLElement> {
  if (!document.getElementById('root') && document.readyState === 'loading') {
    await new Promise((parsed) => document.addEventListener('DOMContentLoaded', parsed, { once: true }));
  }
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html needs <div id="root">');
  return container;
}

const early = startEarly(discoverPlugins());
try {
  const { startApp } = await import('./app/main-app');
  await startApp(await rootElement(), early);
} catch (error) {
  // The console did not start: index.html's static login page must not pretend otherwise.
  announceScreen(null);
  throw error;
}
