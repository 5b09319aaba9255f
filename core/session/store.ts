import { createStore, type StoreApi } from 'zustand/vanilla';

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

const TOKEN_KEY = 'X-Auth-Token';
const USER_KEY = 'user';

export interface SessionState {
  token: string | null;
  user: SessionUser | null;
  signIn(token: string, user: SessionUser): void;
  setUser(user: SessionUser | null): void;
  setToken(token: string | null): void;
  /** Clears token and user, in memory and in storage. */
  clear(): void;
  isAdmin(): boolean;
  /** Passes when the user's menus hold any of the keys. */
  hasMenu(...keys: string[]): boolean;
}

export type SessionStore = StoreApi<SessionState>;

export interface SessionStoreOptions {
  /** Defaults to window.localStorage; tests pass an in-memory one. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  initial?: { token?: string | null; user?: SessionUser | null };
  /**
   * Where another tab's writes to the storage arrive as `storage` events. Defaults to `window` when the storage is
   * localStorage (the default), none otherwise. Without it, a tab would keep and write back a stale token or user.
   */
  events?: Pick<Window, 'addEventListener'> | null;
}

function parseUser(raw: string | null): SessionUser | null {
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

export function createMemoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  const data = new Map<string, string>();
  return {
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

export function createSessionStore(options: SessionStoreOptions = {}): SessionStore {
  const storage = options.storage ?? window.localStorage;
  const persist = (token: string | null, user: SessionUser | null) => {
    if (token === null) storage.removeItem(TOKEN_KEY);
    else storage.setItem(TOKEN_KEY, token);
    if (user === null) storage.removeItem(USER_KEY);
    else storage.setItem(USER_KEY, JSON.stringify(user));
  };
  const token = options.initial?.token !== undefined ? options.initial.token : storage.getItem(TOKEN_KEY);
  const user = options.initial?.user !== undefined ? options.initial.user : parseUser(storage.getItem(USER_KEY));
  if (options.initial) persist(token, user);

  const store = createStore<SessionState>()((set, get) => ({
    token,
    user,
    signIn(nextToken, nextUser) {
      persist(nextToken, nextUser);
      set({ token: nextToken, user: nextUser });
    },
    setUser(nextUser) {
      persist(get().token, nextUser);
      set({ user: nextUser });
    },
    setToken(nextToken) {
      persist(nextToken, get().user);
      set({ token: nextToken });
    },
    clear() {
      persist(null, null);
      set({ token: null, user: null });
    },
    isAdmin: () => get().user?.type === 'admin',
    hasMenu: (...keys) => {
      const menus = get().user?.menus ?? [];
      return keys.some((key) => menus.includes(key));
    },
  }));

  // Sign-in, sign-out or a user refresh in another tab: take the stored state as it now is.
  const events = options.events !== undefined ? options.events : options.storage ? null : window;
  events?.addEventListener('storage', (event: StorageEvent) => {
    if (event.storageArea && event.storageArea !== (storage as unknown)) return;
    if (event.key !== null && event.key !== TOKEN_KEY && event.key !== USER_KEY) return;
    store.setState({ token: storage.getItem(TOKEN_KEY), user: parseUser(storage.getItem(USER_KEY)) });
  });
  return store;
}
