import type { PagesModule, PluginDescriptor } from './types';

/**
 * Identity function for typing: `page` names are checked against the exports of `load()`.
 * Validation happens when the registry is built (at start and in tests), not here, so that a
 * descriptor stays pure data at import time.
 */
export function definePlugin<M extends PagesModule>(plugin: PluginDescriptor<M>): PluginDescriptor<M> {
  return Object.freeze(plugin);
}
