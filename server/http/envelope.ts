import { DEFAULT_LNG, type Lng, type Message, say, text, zhOf } from '../lib/i18n.ts';

/** The wire envelope of every API answer: code 1 = success. */
export interface Envelope {
  code: number;
  message: string;
  data?: unknown;
}

export const ok = (data: unknown = null): Envelope => ({ code: 1, message: 'success', data });

export const MSG_UNAUTHORIZED = text('您的登录信息已失效，请重新登录后再试。', 'Your session has expired. Please log in again.');
/** A personal access token on a route that needs a login (password, TOTP, the access token itself). */
export const MSG_LOGIN_ONLY = text('个人访问令牌不能用于此操作，请登录后再试', 'An access token cannot be used for this. Please log in and try again.');

/**
 * Any failure a handler or hook wants to send; `code` goes in the body. Every envelope answer is HTTP 200, protocol
 * errors (400, 404, 405, 413, 415, 500) included, as the contract §1.2: the 1.3.9 console's request layer never
 * settles on an HTTP error, leaving its buttons busy for ever. Only static files, downloads and WebSocket upgrades
 * use other HTTP statuses. The message is said in the caller's language when the envelope is written (lib/i18n.ts);
 * `Error.message` holds its zh-CN form.
 */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly text: Message,
    readonly data?: unknown,
  ) {
    super(zhOf(text));
  }

  /** The envelope in `lng` (zh-CN, the default, when the caller's language is not known). */
  toEnvelope(lng: Lng = DEFAULT_LNG): Envelope {
    const message = say(this.text, lng);
    return this.data === undefined ? { code: this.code, message } : { code: this.code, message, data: this.data };
  }
}

/** A business failure: `{code:-1, message, data?}`, HTTP 200. */
export const fail = (message: Message, data?: unknown) => new ApiError(-1, message, data);
export const badRequest = (message: Message) => new ApiError(400, message);
export const unauthorized = () => new ApiError(401, MSG_UNAUTHORIZED);
export const forbidden = () => new ApiError(403, 'permission denied');
