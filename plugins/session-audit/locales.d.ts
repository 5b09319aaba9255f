// The plugin's translation keys, typed by its zh-CN file: `t('…')` with a key that file lacks does not compile.
declare module '@/core' {
  interface LocaleNamespaces {
    'session-audit': typeof import('../../locales/zh-CN/session-audit.json');
  }
}
export {};
