import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeData, encodePause, encodePing, encodeResize, encodeResume, FRAME, socketUrl } from '@/core';

describe('terminal frames (contract §5.1)', () => {
  it('encodes what the 1.3.9 console sends', () => {
    expect(encodeData('ls -la\r')).toBe('2ls -la\r');
    expect(encodePing()).toBe('4');
    // base64 of the JSON, exactly as 1.3.9's Term.js
    expect(encodeResize(120, 40)).toBe(`3${Buffer.from('{"cols":120,"rows":40}').toString('base64')}`);
    expect(encodePause()).toBe('5');
    expect(encodeResume()).toBe('6');
  });

  it('decodes by the first character only; content may be empty or start with a digit', () => {
    expect(decodeFrame('1')).toEqual({ type: FRAME.connected, content: '' });
    expect(decodeFrame('2123 中文')).toEqual({ type: FRAME.data, content: '123 中文' });
    expect(decodeFrame('0管理员强制关闭了此会话')).toEqual({ type: FRAME.closed, content: '管理员强制关闭了此会话' });
    expect(decodeFrame('x')).toEqual({ type: -1, content: 'x' });
    expect(decodeFrame('')).toEqual({ type: -1, content: '' });
  });

  it('builds the socket URL on the page origin with the token', () => {
    const api = { baseUrl: '', token: () => 'tok en' };
    expect(socketUrl(api, '/sessions/s1/ssh', { cols: 80, rows: 24 }, 'http://bastion:8088/#/term')).toBe('ws://bastion:8088/sessions/s1/ssh?cols=80&rows=24&X-Auth-Token=tok+en');
    expect(socketUrl(api, '/sessions/s1/ssh-monitor', {}, 'https://b.example/x')).toBe('wss://b.example/sessions/s1/ssh-monitor?X-Auth-Token=tok+en');
  });
});
