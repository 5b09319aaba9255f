// localStorage keys of the session, shared with the 1.3.9 console; apart from zustand for the entry's early start.
export const TOKEN_KEY = 'X-Auth-Token';
export const USER_KEY = 'user';
