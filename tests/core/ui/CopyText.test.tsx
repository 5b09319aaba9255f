// The kit's copy-to-clipboard text: the whole text copied (even when shown cut), 已复制 on success, a clear
// message when the clipboard refuses.
import { renderWithProviders } from '@/core/testing';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CopyText } from '../../../core';

vi.setConfig({ testTimeout: 30_000 });

const SCRIPT = 'cd /srv/app\ngit pull\nsystemctl restart app';

describe('CopyText', () => {
  it('shows the text and copies all of it, saying so', async () => {
    const { user, eventsOf } = await renderWithProviders(<CopyText text={SCRIPT} copyLabel="复制「deploy」的内容" monospace maxWidth={120} />);
    const shown = screen.getByText(/git pull/, { selector: 'span' });
    // Cut to one line: the whole text is the tooltip that describes it.
    expect(shown).toHaveAccessibleDescription(/systemctl restart app/);
    await user.click(await screen.findByRole('button', { name: '复制「deploy」的内容' }));
    await waitFor(() => expect(eventsOf('notify')).toEqual([{ intent: 'success', message: '已复制' }]));
    expect(await navigator.clipboard.readText()).toBe(SCRIPT);
  });

  it('names its button 复制 by default, and reports a refused clipboard', async () => {
    const { user, eventsOf } = await renderWithProviders(<CopyText text="uptime" />);
    const refuse = vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(await screen.findByRole('button', { name: '复制' }));
    await waitFor(() => expect(eventsOf('notify')).toEqual([{ intent: 'error', message: '复制失败，请手动复制' }]));
    expect(refuse).toHaveBeenCalledWith('uptime');
  });
});
