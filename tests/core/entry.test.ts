import { describe, expect, it, vi } from 'vitest';

// The entry (core/main.tsx) with the app and the early start left out: only what it does to the page itself.
vi.mock('../../core/app/early', () => ({ startEarly: () => ({}) }));
vi.mock('../../core/app/main-app', () => ({ startApp: async () => undefined }));

describe('the entry', () => {
  it('lets a failed chunk load reject: it does not cancel vite:preloadError', { timeout: 30_000 }, async () => {
    document.body.innerHTML = '<div id="root"></div>';
    await import('../../core/main');
    // Vite's preload helper dispatches this (cancelable) for a chunk or a file it preloads that cannot be fetched,
    // and rethrows unless the event was cancelled; cancelled, the import() resolves with undefined and its users
    // (the language switch, a plugin page) trip over undefined instead of handling the failure.
    const event = new Event('vite:preloadError', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
  });
});
