import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app/main-app';

afterEach(() => {
  window.location.hash = '';
  window.localStorage.clear();
});

// The production composition (discovered plugins, locale files, hash router, persisted session).
describe('createApp', () => {
  it('boots with the plugins in plugins/ and routes by hash', async () => {
    window.location.hash = '#/no-such-page';
    const { app, services } = await createApp();
    render(app);
    expect(await screen.findByText('抱歉，您似乎到达了预期之外的页面。')).toBeInTheDocument();
    // Branding cannot be fetched here (no server): defaults apply, and no toast.
    await waitFor(() => expect(document.title).toBe('Jumpgate'));
    expect(services.registry.plugins.length).toBeGreaterThanOrEqual(0);
  });

  it('remembers the language', async () => {
    window.localStorage.setItem('jumpgate.lng', 'en-US');
    window.location.hash = '#/nowhere';
    const { app } = await createApp();
    render(app);
    expect(await screen.findByText('Sorry, you seem to have reached an unexpected page.')).toBeInTheDocument();
  });
});
