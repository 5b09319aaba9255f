import type { AnyPlugin } from './types';

// Descriptors are tiny and needed for the menu before any page code, so they are eager;
// each one's pages stay behind its own `load()` chunk.
const modules = import.meta.glob<AnyPlugin>('../../plugins/*/index.ts', { eager: true, import: 'default' });

/** Every plugin folder's descriptor, in folder order. */
export function discoverPlugins(): AnyPlugin[] {
  return Object.entries(modules).map(([file, plugin]) => {
    if (!plugin || typeof plugin !== 'object' || typeof plugin.id !== 'string') {
      throw new Error(`${file} must \`export default definePlugin({...})\``);
    }
    return plugin;
  });
}
