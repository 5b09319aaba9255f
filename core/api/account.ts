import type { ApiClient, Query } from './client';
import type { SessionUser } from '../session/store';

export interface Branding {
  name?: string;
  description?: string;
  copyright?: string;
}

export type AccountInfo = SessionUser;

/** Accept any payload shape the server defines; the console only forwards it. */
type Payload = Record<string, unknown>;

async function dataOr<T>(call: Promise<T>, fallback: T): Promise<T> {
  try {
    return (await call) ?? fallback;
  } catch {
    // The client already told the user (toast or redirect); spec §7: failures yield {} / false.
    return fallback;
  }
}

async function succeeded(call: Promise<unknown>): Promise<boolean> {
  try {
    await call;
    return true;
  } catch {
    return false;
  }
}

/** The account calls of spec §7, shared by login, info and the personal area. */
export function createAccountApi(api: ApiClient) {
  return {
    info: () => dataOr<Partial<AccountInfo>>(api.get<AccountInfo>('/account/info'), {}),
    logout: () => succeeded(api.post('/account/logout')),
    assets: <T = unknown>(query: Query) => dataOr<T | Record<string, never>>(api.get<T>('/account/assets', { params: query }), {}),
    getAccessToken: <T = unknown>() => dataOr<T | Record<string, never>>(api.get<T>('/account/access-token'), {}),
    createAccessToken: <T = unknown>() => dataOr<T | Record<string, never>>(api.post<T>('/account/access-token'), {}),
    deleteAccessToken: () => succeeded(api.delete('/account/access-token')),
    changePassword: (payload: Payload) => succeeded(api.post('/account/change-password', payload)),
    reloadTotp: <T = unknown>() => dataOr<T | Record<string, never>>(api.get<T>('/account/reload-totp'), {}),
    confirmTotp: (payload: Payload) => succeeded(api.post('/account/confirm-totp', payload)),
    resetTotp: () => succeeded(api.post('/account/reset-totp')),
    /** Silent: the console must start even when the server has no branding (or is not there). */
    branding: () => dataOr<Branding>(api.get<Branding>('/branding', { silent: true }), {}),
  };
}

export type AccountApi = ReturnType<typeof createAccountApi>;
