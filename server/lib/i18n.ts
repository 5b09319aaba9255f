/*
 * The server's messages in the user's language. The console speaks zh-CN (the default, 1.3.9's) and en-US; the server
 * answers each request in the language it asks for (http/language.ts: `?lng=`, then `Accept-Language`).
 *
 * A message is written once, in zh-CN, where it is thrown or stored — the zh-CN text stays the canonical form: it is what
 * rows keep (a session's close reason), what 1.3.9's console shows and what tests compare. Its English is declared
 * beside it with `text(zh, en)`, which returns the zh-CN string itself, so a constant stays a plain string everywhere.
 * The edges say it in the caller's language (`say`): the envelope's message (http/errors.ts), a WebSocket's closed
 * frame (http/routes.ts) and stored texts read back for a list (a session's close reason).
 *
 * A message built at run time (with a name or a count in it) is a `Localized` pair made with `both(zh, en)`; a thrown
 * `fail(both(…))` is said the same way. A plain string that no `text()` declared goes out as it is, in every language.
 */

export type Lng = 'zh-CN' | 'en-US';
export const DEFAULT_LNG: Lng = 'zh-CN';

/** A message composed at run time, in both languages. */
export interface Localized {
  readonly zh: string;
  readonly en: string;
}

/** What a failure or a closed frame carries: a zh-CN string (translated if declared with `text`) or a pair. */
export type Message = string | Localized;

/** zh-CN text → English, for every message declared with `text`. Filled at module load by constants only. */
const english = new Map<string, string>();

/**
 * Declares a fixed message in both languages and returns its zh-CN text. For module-level constants only (the
 * table is never pruned): a message with run-time parts is `both(zh, en)`.
 */
export function text(zh: string, en: string): string {
  const known = english.get(zh);
  if (known !== undefined && known !== en) throw new Error(`message "${zh}" is declared with two translations: "${known}" and "${en}"`);
  english.set(zh, en);
  return zh;
}

/** A message with run-time parts, in both languages. */
export const both = (zh: string, en: string): Localized => ({ zh, en });

/** The message's zh-CN form (what is stored, and what Error.message holds). */
export const zhOf = (message: Message): string => (typeof message === 'string' ? message : message.zh);

/** The zh-CN ideographic colon that joins a message to its detail (`会话不存在：<id>`). */
const DETAIL = '：';

/**
 * The message in `lng`. A declared text is looked up whole, then as `<declared>：<detail>` (the way modules append an
 * id or a reason), which becomes `<English>: <detail>`, the detail said the same way; anything else is returned
 * unchanged.
 */
export function say(message: Message, lng: Lng): string {
  if (typeof message !== 'string') return lng === 'en-US' ? message.en : message.zh;
  if (lng !== 'en-US') return message;
  const whole = english.get(message);
  if (whole !== undefined) return whole;
  const cut = message.indexOf(DETAIL);
  if (cut > 0) {
    const head = english.get(message.slice(0, cut));
    // The detail may itself be a declared text with its detail (`创建SSH客户端失败：主机密钥已变更…：<keys>`).
    if (head !== undefined) return `${head}: ${say(message.slice(cut + DETAIL.length), lng)}`;
  }
  return message;
}

/** Whether `message` has an English form (a declared text, or a declared text with a detail). */
export const isTranslated = (message: string): boolean => say(message, 'en-US') !== message;

/** A `lng` parameter's value, if it names a language the server speaks. */
export function asLng(value: unknown): Lng | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  if (v === 'zh-cn' || v === 'zh' || v.startsWith('zh-')) return 'zh-CN';
  if (v === 'en-us' || v === 'en' || v.startsWith('en-')) return 'en-US';
  return undefined;
}

/**
 * The language an `Accept-Language` header prefers among the two the server speaks (by its q-values, ties in the
 * header's order); zh-CN when it names neither, or is absent. `en-GB,en;q=0.9` → en-US, `fr,zh;q=0.5` → zh-CN.
 */
export function fromAcceptLanguage(header: string | undefined): Lng {
  if (!header) return DEFAULT_LNG;
  let best: { lng: Lng; q: number } | undefined;
  for (const part of header.split(',', 32)) {
    const [tag = '', ...params] = part.split(';');
    const lng = asLng(tag);
    if (!lng) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { lng, q };
  }
  return best?.lng ?? DEFAULT_LNG;
}
