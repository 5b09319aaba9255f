/** The wire envelope of every API answer: code 1 = success. */
export interface Envelope {
  code: number;
  message: string;
  data?: unknown;
}

export const ok = (data: unknown = null): Envelope => ({ code: 1, message: 'success', data });

export const MSG_UNAUTHORIZED = '您的登录信息已失效，请重新登录后再试。';

/**
 * Any failure a handler or hook wants to send. `code` goes in the body; `status` is the HTTP status.
 * Business answers (-1, 100, 401, 403) keep HTTP 200 as the contract does; protocol errors
 * (400, 404, 405, 413, 415, 500) use the matching HTTP status as well.
 */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly status = code >= 400 && code !== 401 && code !== 403 ? code : 200,
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
