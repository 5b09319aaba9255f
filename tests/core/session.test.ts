import { createMemoryStorage, createSessionStore } from '@/core/testing';
import { describe, expect, it } from 'vitest';

describe('session store', () => {
  it('persists token and user under the 1.3.9 keys and clears them', () => {
    const storage = createMemoryStorage();
    const store = createSessionStore({ storage });
    expect(store.getState().user).toBeNull();
    store.getState().signIn('tok-1', { type: 'admin', nickname: 'Ann', menus: ['user', 'role'] });
    expect(storage.getItem('X-Auth-Token')).toBe('tok-1');
    expect(JSON.parse(storage.getItem('user') ?? 'null')).toEqual({ type: 'admin', nickname: 'Ann', menus: ['user', 'role'] });

    const reloaded = createSessionStore({ storage });
    expect(reloaded.getState().token).toBe('tok-1');
    expect(reloaded.getState().isAdmin()).toBe(true);
    expect(reloaded.getState().hasMenu('asset', 'role')).toBe(true);
    expect(reloaded.getState().hasMenu('asset')).toBe(false);
    expect(reloaded.getState().hasMenu()).toBe(false);

    reloaded.getState().clear();
    expect(storage.getItem('X-Auth-Token')).toBeNull();
    expect(storage.getItem('user')).toBeNull();
    expect(reloaded.getState().isAdmin()).toBe(false);
  });

  it('uses window.localStorage by default and survives a corrupt user entry', () => {
    window.localStorage.setItem('user', '{not json');
    window.localStorage.setItem('X-Auth-Token', 't');
    const store = createSessionStore();
    expect(store.getState().user).toBeNull();
    expect(store.getState().token).toBe('t');
    store.getState().setUser({ type: 'user', menus: [] });
    expect(store.getState().isAdmin()).toBe(false);
    expect(JSON.parse(window.localStorage.getItem('user') ?? '{}').type).toBe('user');
    store.getState().clear();
  });

  it('follows another tab: a sign-in or sign-out there is taken, and never overwritten with a stale token', () => {
    window.localStorage.clear();
    const events = new EventTarget() as unknown as Window; // this tab's window, as far as the store is concerned
    const store = createSessionStore({ storage: window.localStorage, events });
    expect(store.getState().token).toBeNull();

    // Another tab signs in: localStorage changes and this tab gets a `storage` event.
    window.localStorage.setItem('X-Auth-Token', 'tok-other');
    window.localStorage.setItem('user', JSON.stringify({ type: 'admin', nickname: 'Other', menus: ['user'] }));
    events.dispatchEvent(new StorageEvent('storage', { key: 'X-Auth-Token', storageArea: window.localStorage }));
    expect(store.getState().token).toBe('tok-other');
    expect(store.getState().user).toMatchObject({ nickname: 'Other', menus: ['user'] });

    // A later user refresh in this tab keeps the other tab's token instead of writing null over it.
    store.getState().setUser({ type: 'admin', nickname: 'Other', menus: ['user', 'role'] });
    expect(window.localStorage.getItem('X-Auth-Token')).toBe('tok-other');

    // Unrelated keys are ignored; a clear() in the other tab (key null) signs this tab out too.
    window.localStorage.setItem('jumpgate.lng', 'en-US');
    events.dispatchEvent(new StorageEvent('storage', { key: 'jumpgate.lng', storageArea: window.localStorage }));
    expect(store.getState().token).toBe('tok-other');
    window.localStorage.clear();
    events.dispatchEvent(new StorageEvent('storage', { key: null, storageArea: window.localStorage }));
    expect(store.getState().token).toBeNull();
    expect(store.getState().user).toBeNull();
  });

  it('gives every factory call a fresh instance', () => {
    const a = createSessionStore({ storage: createMemoryStorage() });
    const b = createSessionStore({ storage: createMemoryStorage() });
    a.getState().signIn('x', { type: 'admin', menus: [] });
    expect(b.getState().token).toBeNull();
  });
});
