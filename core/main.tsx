// The entry: descriptors and the early start only, no library. It starts every load the first screen needs
// (core/app/early.ts), then the app chunk (React, Fluent, the router…), which reuses them.
import { startEarly } from './app/early';
import { announceScreen } from './app/firstScreen';
import { discoverPlugins } from './plugin/discover';
// Fluent's theme as CSS variables (scripts/theme-css.ts): see CoreProvider.
import 'virtual:jumpgate-theme.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html needs <div id="root">');

// A stale deployment misses chunks: let the chunk loader's retry handle it instead of a blank page.
window.addEventListener('vite:preloadError', (event) => event.preventDefault());

const early = startEarly(discoverPlugins());
try {
  const { startApp } = await import('./app/main-app');
  await startApp(container, early);
} catch (error) {
  // The console did not start: index.html's static login page must not pretend otherwise.
  announceScreen(null);
  throw error;
}
