// The plugin's translation keys, typed by its zh-CN file: `t('…')` with a key that file lacks does not compile.
declare module '@/core' {
  interface LocaleNamespaces {
    desktop: typeof import('../../locales/zh-CN/desktop.json');
  }
}
export {};
