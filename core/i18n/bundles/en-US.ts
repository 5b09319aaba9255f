// Every namespace of en-US in one module (core/i18n/resources.ts, loadLocaleBundle): what a layout's menu needs,
// in one request instead of one per plugin. As text (`?raw`, parsed on arrival): distinct modules from the
// per-file chunks, which the login screen keeps loading one by one.
export default import.meta.glob<string>('../../../locales/en-US/*.json', { eager: true, import: 'default', query: '?raw' });
