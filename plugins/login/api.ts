import type { ApiClient, Envelope, SessionUser } from '@/core';

export interface LoginBody {
  username: string;
  password: string;
  remember: boolean;
  /** Only on the second step, after the server answered code 100. */
  totp?: string;
}

export interface LoginData {
  token: string;
  info: Partial<SessionUser> & { menus?: string[] | null };
}

/**
 * POST /login through the raw envelope (code 100 = "a TOTP code is needed" must reach the page).
 * Silent: the page shows failures inline, so the client does not toast them a second time.
 */
export const postLogin = (api: ApiClient, body: LoginBody): Promise<Envelope<LoginData>> =>
  api.request<LoginData>('POST', '/login', body, { silent: true });

/** The session's user from the login answer (`menus` is null for users without roles). */
export function sessionUserOf(info: LoginData['info']): SessionUser {
  return { ...info, type: String(info.type ?? ''), menus: Array.isArray(info.menus) ? info.menus.map(String) : [] };
}
