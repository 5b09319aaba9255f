// The session as the browser keeps it (localStorage, shared with the 1.3.9 console): read by the session store and,
// before any library has arrived, by the entry's early start (core/app/early.ts). So nothing here imports a library.

export const TOKEN_KEY = 'X-Auth-Token';
export const USER_KEY = 'user';

/** Shape of the `user` localStorage entry, shared with the 1.3.9 console. */
export interface SessionUser {
  id?: string;
  username?: string;
  nickname?: string;
  type: 'admin' | 'user' | string;
  menus: string[];
  enableTotp?: boolean;
  [extra: string]: unknown;
}

/** The stored `user` entry; a missing or corrupt one is null. */
export function parseUser(raw: string | null): SessionUser | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object') {
      const user = value as Partial<SessionUser>;
      return { ...user, type: String(user.type ?? ''), menus: Array.isArray(user.menus) ? user.menus.map(String) : [] };
    }
  } catch {
    // a corrupt entry is the same as no entry
  }
  return null;
}
