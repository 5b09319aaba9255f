import { describe, expect, it } from 'vitest';
import { PlaybackChannel } from '../../../plugins/desktop/components/channel';
import { serverInit } from './fixtures';

// The real noVNC (`@novnc/novnc`, whose package export is core/rfb.js) in jsdom: it imports, and accepts our channel
// object (it checks the properties a WebSocket has). Drawing needs a canvas jsdom lacks, so the handshake runs only where a
// 2D context exists.
describe('real noVNC', () => {
  it('imports and takes the player’s channel object', async () => {
    const { default: RFB } = await import('@novnc/novnc');
    expect(typeof RFB).toBe('function');
    const channel = new PlaybackChannel(serverInit(4, 2, 'desk'));
    const target = document.createElement('div');
    document.body.appendChild(target);
    let rfb: InstanceType<typeof RFB> | null = null;
    try {
      rfb = new RFB(target, channel);
    } catch (error) {
      // jsdom: no 2D context. The channel was not refused for a missing property, which is what we check here.
      expect(String(error)).not.toMatch(/Raw channel missing property/);
      return;
    }
    // It attached to the channel as to a WebSocket.
    expect(channel.binaryType).toBe('arraybuffer');
    expect(typeof channel.onopen).toBe('function');
    expect(typeof channel.onmessage).toBe('function');
    const canDraw = (() => {
      try {
        return document.createElement('canvas').getContext('2d') !== null;
      } catch {
        return false;
      }
    })();
    if (!canDraw) {
      rfb.disconnect();
      return; // jsdom here: the handshake is covered with the viewer fake (desktop.test.tsx) and by the e2e test
    }
    const connected = new Promise<void>((resolve) => rfb?.addEventListener('connect', () => resolve()));
    channel.start();
    await connected;
    expect(channel.ready).toBe(true);
    rfb.disconnect();
  });
});
