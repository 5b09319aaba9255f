// The lazy facade of the plugin's chunk (plugin-desktop-*.js): one export per page. noVNC is a further chunk.
export { DesktopMonitor } from './components/DesktopMonitor';
export { DesktopPage } from './components/DesktopPage';
export { DesktopPlayback } from './components/DesktopPlayback';
