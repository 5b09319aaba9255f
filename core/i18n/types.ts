// Typed translation keys: `t('a.key')` must name a key of the namespace's zh-CN file (the reference language), or
// the console does not compile. en-US must hold the same keys: tests/meta/locales.test.ts.
import type core from '../../locales/zh-CN/core.json';
import type kit from '../../locales/zh-CN/kit.json';

/**
 * The locale namespaces, each typed by its zh-CN file. Core declares its own; each plugin adds its namespace next to
 * its descriptor (see docs/PLUGINS.md):
 *
 *     declare module '@/core' {
 *       interface LocaleNamespaces {
 *         identity: typeof import('../../locales/zh-CN/identity.json');
 *       }
 *     }
 */
export interface LocaleNamespaces {
  core: typeof core;
  /** The UI kit's strings (`ui.*`), loaded with the layouts rather than at start (core/ui/i18n.ts). */
  kit: typeof kit;
}

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'core';
    resources: LocaleNamespaces;
  }
}

/** A translator for keys that are strings at compile time. */
export type DataKeyT = (key: string, options?: Record<string, unknown>) => string;

/**
 * `t` for keys that arrive as data rather than written in the code: a plugin's label and title keys (the registry
 * checks them in both languages at start), a key assembled at run time. Everywhere else the typed `t` applies.
 */
export function dataKeyT(t: (...args: never[]) => unknown): DataKeyT {
  return t as unknown as DataKeyT;
}
