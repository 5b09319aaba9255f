import { ApiError } from '@/core';
import { createQueryClient, retryDelay, shouldRetry } from '@/core/testing';
import { describe, expect, it } from 'vitest';

describe('query client defaults', () => {
  it('retries 3 times with exponential delay from 1 s capped at 30 s, keeps cache 5 min', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(shouldRetry(0, new Error('boom'))).toBe(true);
    expect(shouldRetry(2, new Error('boom'))).toBe(true);
    expect(shouldRetry(3, new Error('boom'))).toBe(false);
    const defaults = createQueryClient().getDefaultOptions().queries;
    expect(defaults?.gcTime).toBe(300_000);
    expect(defaults?.retry).toBe(shouldRetry);
  });

  it('does not retry business errors nor 4xx, but retries network and 5xx', () => {
    expect(shouldRetry(0, new ApiError('business', 'x', -1, 200, true))).toBe(false);
    expect(shouldRetry(0, new ApiError('http', 'x', null, 404, true))).toBe(false);
    expect(shouldRetry(0, new ApiError('unauthorized', 'x', 401, 200, true))).toBe(false);
    expect(shouldRetry(0, new ApiError('http', 'x', null, 502, true))).toBe(true);
    expect(shouldRetry(0, new ApiError('network', 'x', null, null, true))).toBe(true);
  });
});

describe('query client of the console (created lazily by core/query)', () => {
  it('a new sign-in drops the previous cache but keeps the branding, which feeds useBranding', async () => {
    const { createCoreServices } = await import('../../core/app/services');
    const { queryClientFor } = await import('../../core/query/hooks');
    const { createMemoryStorage, createSessionStore } = await import('@/core/testing');
    const session = createSessionStore({ storage: createMemoryStorage(), initial: { token: null, user: null } });
    const services = createCoreServices({ plugins: [], resources: { 'zh-CN': {}, 'en-US': {} }, session, redirect: () => {}, queryRetry: false });
    const client = queryClientFor(services);
    expect(queryClientFor(services)).toBe(client);
    expect(client.getDefaultOptions().queries?.retry).toBe(false);
    client.setQueryData(['identity', 'users'], [1, 2]);
    client.setQueryData(['core', 'branding'], { name: 'Acme' });
    expect(services.branding.get()).toEqual({ name: 'Acme' });
    session.getState().signIn('token-2', { type: 'admin', menus: [] });
    expect(client.getQueryData(['identity', 'users'])).toBeUndefined();
    expect(client.getQueryData(['core', 'branding'])).toEqual({ name: 'Acme' });
  });
});
