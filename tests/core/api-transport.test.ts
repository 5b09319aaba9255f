import { ApiError, type CoreEvents } from '@/core';
import { createApiClient, createEventBus, createFakeApi, createMemoryStorage, createSessionStore } from '@/core/testing';
import { describe, expect, it, vi } from 'vitest';

// The axios transport is its own chunk (core/api/transport.ts). When that chunk cannot be fetched (a stale
// deployment, a dropped connection) a call is the network failing: the §8 row 网络异常, never a pending promise.
const chunk = vi.hoisted(() => ({ fail: true }));
vi.mock('../../core/api/transport.ts', async (importOriginal) => {
  if (chunk.fail) throw new TypeError('Failed to fetch dynamically imported module: /static/transport-x.js');
  return importOriginal();
});

describe('API client: the transport chunk', () => {
  it('a transport chunk that does not arrive → toast 网络异常 and a network ApiError', async () => {
    const bus = createEventBus();
    const notes: CoreEvents['notify'][] = [];
    bus.on('notify', (n) => notes.push(n));
    const session = createSessionStore({ storage: createMemoryStorage(), initial: { token: null, user: null } });
    const api = createApiClient({
      session,
      bus,
      t: (key) => (key === 'error.network' ? '网络异常' : key),
      redirect: () => undefined,
      adapter: createFakeApi({ 'GET /x': { ok: true } }).adapter,
    });
    const error = await api.get('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'network', notified: true, message: '网络异常' });
    expect(notes).toEqual([{ intent: 'error', message: '网络异常' }]);
  });
});
