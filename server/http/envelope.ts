/** The wire envelope of every API answer: code 1 = success. */
export interface Envelope {
  code: number;
  message: string;
  data?: unknown;
}

export const ok = (data: unknown = null): Envelope => ({ code: 1, message: 'success', data });

export const MSG_UNAUTHORIZED = '您的登录信息已失效，请重新登录后再试。';
/** A personal access token on a route that needs a login (password, TOTP, the access token itself). */
export const MSG_LOGIN_ONLY = '个人访问令牌不能用于此操作，请登录后再试';

/**
 * Any failure a handler or hook wants to send; `code` goes in the body. Every envelope answer is HTTP 200, protocol
 * errors (400, 404, 405, 413, 415, 500) included, as the contract §1.2: the 1.3.9 console's request layer never
 * settles on an HTTP error, leaving its buttons busy for ever. Only static files, downloads and WebSocket upgrades
 * use other HTTP statuses.
 */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  toEnvelope(): Envelope {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

/** A business failure: `{code:-1, message, data?}`, HTTP 200. */
export const fail = (message: string, data?: unknown) => new ApiError(-1, message, data);
export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = () => new ApiError(401, MSG_UNAUTHORIZED);
export const forbidden = () => new ApiError(403, 'permission denied');
