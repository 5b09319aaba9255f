import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApp } from './app/main-app';
// Fluent's theme as CSS variables (scripts/theme-css.ts): see CoreProvider.
import 'virtual:jumpgate-theme.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html needs <div id="root">');

// A stale deployment misses chunks: let the chunk loader's retry handle it instead of a blank page.
window.addEventListener('vite:preloadError', (event) => event.preventDefault());

const { app } = await createApp();
createRoot(container).render(<StrictMode>{app}</StrictMode>);
