import axios, { type AxiosAdapter, type AxiosInstance, isAxiosError } from 'axios';

/**
 * The axios side of the API client, in its own chunk: the client starts fetching it at once, in parallel
 * with the first screen, so the login screen does not wait for ~20 KB it only needs on the first call.
 */
export interface Transport {
  http: AxiosInstance;
  isAxiosError: typeof isAxiosError;
}

export function createTransport(token: () => string | null, adapter: AxiosAdapter | undefined, language: () => string | null = () => null): Transport {
  const http = axios.create({ baseURL: '', adapter });
  http.interceptors.request.use((config) => {
    const value = token();
    if (value) config.headers.set('X-Auth-Token', value);
    // The server says its messages (refusals, close reasons) in the console's current language.
    const lng = language();
    if (lng && !config.headers.has('Accept-Language')) config.headers.set('Accept-Language', lng);
    return config;
  });
  return { http, isAxiosError };
}
