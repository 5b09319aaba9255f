import { installFakeWebSocket } from '@/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PING_MS, PlaybackChannel, SocketChannel } from '../../../plugins/desktop/components/channel';
import { serverInit } from './fixtures';

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('SocketChannel (the live socket as noVNC’s channel)', () => {
  let restore: () => void = () => undefined;
  afterEach(() => restore());

  function setup() {
    const sockets = installFakeWebSocket();
    restore = sockets.restore;
    const socket = new WebSocket('ws://x/sessions/s1/vnc');
    const events = { connected: vi.fn(), closed: vi.fn() };
    const channel = new SocketChannel(socket, events);
    const seen = { open: 0, messages: [] as number[][], closes: [] as { reason: string }[] };
    channel.onopen = () => {
      seen.open += 1;
    };
    channel.onmessage = ({ data }) => seen.messages.push(Array.from(new Uint8Array(data)));
    channel.onclose = (e) => seen.closes.push(e);
    const fake = sockets.last();
    const binary = (...b: number[]) => fake.onmessage?.(new MessageEvent('message', { data: Uint8Array.from(b).buffer }));
    return { channel, fake, events, seen, binary };
  }

  it('opens at 1, not when the socket opens; binary passes only once open; sends go out as bytes', () => {
    const { channel, fake, events, seen, binary } = setup();
    fake.serverOpens();
    expect(channel.readyState).toBe('connecting');
    binary(9); // before `1`: not RFB yet
    channel.send(Uint8Array.of(1)); // noVNC never sends before open; if it did, nothing goes
    expect(fake.sent).toHaveLength(0);
    fake.serverSends('1');
    expect(channel.readyState).toBe('open');
    expect(seen.open).toBe(1);
    expect(events.connected).toHaveBeenCalledTimes(1);
    binary(0x52, 0x46, 0x42);
    expect(seen.messages).toEqual([[0x52, 0x46, 0x42]]);
    const buffer = new Uint8Array([7, 8, 9, 10]);
    channel.send(buffer.subarray(1, 3));
    buffer.fill(0); // noVNC reuses its buffer at once: what was sent is a copy
    expect(fake.sent.map((d) => Array.from(d as unknown as Uint8Array))).toEqual([[8, 9]]);
    fake.serverSends('4'); // a pong: nothing for noVNC
    fake.serverSends('2text'); // textual frames are control frames: never RFB
    expect(seen.messages).toHaveLength(1);
  });

  it('0<reason> closes with the reason for the page and for noVNC', () => {
    const { channel, fake, events, seen } = setup();
    fake.serverOpens();
    fake.serverSends('1');
    fake.serverSends('0管理员强制断开了此会话');
    expect(channel.readyState).toBe('closed');
    expect(channel.reason).toBe('管理员强制断开了此会话');
    expect(events.closed).toHaveBeenCalledWith('管理员强制断开了此会话');
    expect(seen.closes.map((c) => c.reason)).toEqual(['管理员强制断开了此会话']);
    expect(fake.readyState).toBe(fake.CLOSED);
  });

  it('a socket that closes without a word closes with an empty reason', () => {
    const { events, fake } = setup();
    fake.serverOpens();
    fake.serverCloses(1006);
    expect(events.closed).toHaveBeenCalledWith('');
  });

  it('pings 4 every 10 s while open, and stops when closed', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { fake } = setup();
      fake.serverOpens();
      vi.advanceTimersByTime(PING_MS);
      expect(fake.sent).toHaveLength(0); // not before `1`
      fake.serverSends('1');
      vi.advanceTimersByTime(PING_MS * 3);
      expect(fake.sent).toEqual(['4', '4', '4']);
      fake.serverCloses();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('PlaybackChannel (the player’s RFB server)', () => {
  it('plays version, None, SecurityResult OK, then the ServerInit after ClientInit, and only then the records', async () => {
    const init = serverInit(4, 2, 'desk');
    const channel = new PlaybackChannel(init);
    const got: number[][] = [];
    let opened = false;
    channel.onopen = () => {
      opened = true;
    };
    channel.onmessage = ({ data }) => got.push(Array.from(new Uint8Array(data)));
    channel.push(Uint8Array.of(0, 0, 0, 0)); // too early: dropped
    channel.start();
    expect(opened).toBe(true);
    await flush();
    expect(got).toEqual([Array.from(new TextEncoder().encode('RFB 003.008\n'))]);
    channel.send(new TextEncoder().encode('RFB 003.008\n'));
    await flush();
    expect(got[1]).toEqual([1, 1]); // one type: None
    channel.send(Uint8Array.of(1));
    await flush();
    expect(got[2]).toEqual([0, 0, 0, 0]); // SecurityResult OK
    expect(channel.ready).toBe(false);
    channel.send(Uint8Array.of(1)); // ClientInit (shared)
    await flush();
    expect(got[3]).toEqual(Array.from(init));
    expect(channel.ready).toBe(true);
    channel.send(Uint8Array.of(0, 0, 0, 0, 32, 24)); // SetPixelFormat…: ignored
    channel.push(Uint8Array.of(0, 0, 0, 0));
    await flush();
    expect(got).toHaveLength(5);
    expect(got[4]).toEqual([0, 0, 0, 0]);
    channel.close();
    channel.push(Uint8Array.of(2));
    await flush();
    expect(got).toHaveLength(5);
  });

  it('waits for all 12 bytes of the client’s version, whatever the pieces', async () => {
    const channel = new PlaybackChannel(serverInit());
    const got: number[][] = [];
    channel.onmessage = ({ data }) => got.push(Array.from(new Uint8Array(data)));
    channel.start();
    channel.send(new TextEncoder().encode('RFB 003'));
    await flush();
    expect(got).toHaveLength(1);
    channel.send(new TextEncoder().encode('.008\n'));
    await flush();
    expect(got[1]).toEqual([1, 1]);
  });
});
