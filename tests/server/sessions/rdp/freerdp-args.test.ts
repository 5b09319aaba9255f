import { describe, expect, it } from 'vitest';
import { RDP_SECURITY } from '../../../../server/modules/assets/fields.ts';
import { freerdpFingerprint } from '../../../../server/modules/sessions/rdp/certificate.ts';
import { markerOf } from '../../../../server/modules/sessions/rdp/display.ts';
import { freerdpArgs, RdpArgumentError, type RdpFlags, type RdpTarget, SECURITY_MODES } from '../../../../server/modules/sessions/rdp/freerdp.ts';

/*
 * FreeRDP's command line from an asset's attributes and the session's flags (rdp/freerdp.ts freerdpArgs): what each
 * attribute turns into, the clipboard and the drive only when the strategy allows them, the certificate always pinned,
 * and values that could break out of their argument refused.
 */

const FINGERPRINT = `SHA256:${Buffer.alloc(32, 0xab).toString('base64').replace(/=+$/, '')}`;
const SIZE = { width: 1024, height: 768 };

const target = (attributes: Record<string, string> = {}, over: Partial<RdpTarget> = {}): RdpTarget => ({
  host: '10.1.2.3',
  port: 3389,
  username: 'alice',
  fingerprint: FINGERPRINT,
  attributes: new Map(Object.entries(attributes)),
  ...over,
});
const args = (attributes: Record<string, string> = {}, flags: RdpFlags = { clipboard: false }, over: Partial<RdpTarget> = {}) =>
  freerdpArgs('s-1', SIZE, target(attributes, over), flags);
const refused = (attributes: Record<string, string>, over: Partial<RdpTarget> = {}) => () => args(attributes, { clipboard: false }, over);

describe('freerdpArgs', () => {
  it('always: the host, the account (password on stdin), the pinned certificate, full screen at the size, the marker', () => {
    const a = args();
    expect(a).toEqual(
      expect.arrayContaining([
        '/v:10.1.2.3',
        '/port:3389',
        '/u:alice',
        '/from-stdin:force',
        `/cert:fingerprint:sha256:${freerdpFingerprint(FINGERPRINT)},deny,name:jumpgate-pinned.invalid`,
        '/f',
        '/size:1024x768',
        `/wm-class:${markerOf('s-1')}`,
        '-auto-reconnect',
      ]),
    );
    expect(freerdpFingerprint(FINGERPRINT)).toBe(Array(32).fill('ab').join(':'));
    expect(a.some((x) => x.startsWith('/p:') || x.startsWith('/password'))).toBe(false);
    expect(a.some((x) => x.startsWith('/d:'))).toBe(false);
    // An IPv6 address is bracketed.
    expect(args({}, { clipboard: false }, { host: '::1' })).toContain('/v:[::1]');
  });

  it('the clipboard only when the strategy allows copy or paste; the drive only when it allows files', () => {
    expect(args({}, { clipboard: false })).toContain('-clipboard');
    expect(args({}, { clipboard: false })).not.toContain('+clipboard');
    expect(args({}, { clipboard: true })).toContain('+clipboard');
    expect(args({}, { clipboard: true })).not.toContain('-clipboard');
    expect(args({ 'enable-drive': 'true' }, { clipboard: false }).some((x) => x.startsWith('/drive'))).toBe(false);
    expect(args({}, { clipboard: false, driveDir: '/data/rdp-drive/s-1' })).toContain('/drive:jumpgate,/data/rdp-drive/s-1');
  });

  it('maps the attributes to their flags', () => {
    const a = args({
      domain: 'CORP',
      security: 'nla',
      'color-depth': '16',
      'remote-app': '||notepad',
      'remote-app-dir': 'C:\\Temp',
      'remote-app-args': 'a.txt',
      console: 'true',
      'preconnection-id': '42',
      'preconnection-blob': 'blob',
      'load-balance-info': 'tsv://MS Terminal Services Plugin.1.Farm',
      'enable-wallpaper': 'true',
      'enable-theming': 'true',
      'enable-font-smoothing': 'true',
      'enable-full-window-drag': 'true',
      'enable-desktop-composition': 'true',
      'enable-menu-animations': 'true',
      'disable-bitmap-caching': 'true',
      'disable-offscreen-caching': 'true',
      'disable-glyph-caching': 'true',
    });
    expect(a).toEqual(
      expect.arrayContaining([
        '/d:CORP',
        '/sec:nla',
        '/bpp:16',
        '/app:||notepad',
        '/app-workdir:C:\\Temp',
        '/app-cmd:a.txt',
        '/admin',
        '/pcid:42',
        '/pcb:blob',
        '/load-balance-info:tsv://MS Terminal Services Plugin.1.Farm',
        '+wallpaper',
        '+themes',
        '+fonts',
        '+window-drag',
        '+aero',
        '+menu-anims',
        '-bitmap-cache',
        '-offscreen-cache',
        '-glyph-cache',
      ]),
    );
    // Off unless enabled; caches on unless disabled; no console, no app.
    const plain = args({ console: 'false', 'enable-wallpaper': 'false' });
    expect(plain).toEqual(expect.arrayContaining(['-wallpaper', '-themes', '-fonts', '-window-drag', '-aero', '-menu-anims', '-sec-rdp']));
    expect(plain.some((x) => ['/admin', '-bitmap-cache', '-offscreen-cache', '-glyph-cache'].includes(x) || x.startsWith('/app') || x.startsWith('/bpp'))).toBe(false);
    expect(args({ security: 'nla-ext' })).toContain('/sec:ext');
    expect(args({ security: 'tls' })).toContain('/sec:tls');
    expect(args({ security: 'any' })).toContain('-sec-rdp');
    // The app's directory and arguments only with an app.
    expect(args({ 'remote-app-dir': 'C:\\Temp' }).some((x) => x.startsWith('/app'))).toBe(false);
  });

  it('refuses control characters, huge values and values out of their set, naming the attribute', () => {
    for (const [name, bad] of [
      ['domain', 'CORP\n/p:x'],
      ['remote-app', 'a\u0000b'],
      ['load-balance-info', 'x\u001bY'],
      ['preconnection-blob', 'a\u007fb'],
      ['domain', 'x'.repeat(1025)],
    ] as const) {
      expect(refused({ [name]: bad }), name).toThrow(RdpArgumentError);
      expect(refused({ [name]: bad }), name).toThrow(name);
    }
    expect(refused({ security: 'rdp' })).toThrow(/security: rdp/);
    expect(refused({ 'color-depth': '12' })).toThrow(/color-depth/);
    expect(refused({ 'preconnection-id': '4 2' })).toThrow(/preconnection-id/);
    expect(refused({}, { username: 'al\rice' })).toThrow(RdpArgumentError);
    expect(refused({}, { username: '' })).toThrow(RdpArgumentError);
    // Each value is one argument: spaces stay inside it.
    expect(args({ domain: 'A B' })).toContain('/d:A B');
  });

  it("the asset form's security values are exactly the ones FreeRDP is given", () => {
    expect([...RDP_SECURITY]).toEqual(SECURITY_MODES.filter(Boolean));
  });
});
