import { describe, expect, it } from 'vitest';
import { parseUserAgent } from '../../../plugins/log-audit/components/userAgent';

const UA = {
  chrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.109 Safari/537.36',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91',
  opera: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36 OPR/105.0.0.0',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  safari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15',
  iosChrome: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1',
  ie11: 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
  headless: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36',
};

describe('parseUserAgent', () => {
  it('names the common browsers with their version', () => {
    expect(parseUserAgent(UA.chrome)).toEqual({ name: 'Chrome', version: '120' });
    expect(parseUserAgent(UA.edge)).toEqual({ name: 'Edge', version: '120' });
    expect(parseUserAgent(UA.opera)).toEqual({ name: 'Opera', version: '105' });
    expect(parseUserAgent(UA.firefox)).toEqual({ name: 'Firefox', version: '121' });
    expect(parseUserAgent(UA.safari)).toEqual({ name: 'Safari', version: '17.2' });
    expect(parseUserAgent(UA.iosChrome)).toEqual({ name: 'Chrome', version: '120' });
    expect(parseUserAgent(UA.ie11)).toEqual({ name: 'Internet Explorer', version: '11' });
  });

  it('names command-line clients by their first token, and SSH logins as terminal', () => {
    expect(parseUserAgent('curl/8.5.0')).toEqual({ name: 'curl', version: '8.5' });
    expect(parseUserAgent('python-requests/2.31.0')).toEqual({ name: 'python-requests', version: '2.31' });
    expect(parseUserAgent('Wget/1.21.4')).toEqual({ name: 'Wget', version: '1.21' });
    expect(parseUserAgent('terminal')).toEqual({ name: 'terminal', version: '' });
  });

  it('falls back to the first token, and to nothing for an empty agent', () => {
    expect(parseUserAgent('Mozilla/5.0 (compatible; SomeBot)')).toEqual({ name: 'Mozilla/5.0', version: '' });
    expect(parseUserAgent(UA.headless)).toEqual({ name: 'Chrome', version: '131' });
    expect(parseUserAgent('')).toBeNull();
    expect(parseUserAgent('   ')).toBeNull();
    expect(parseUserAgent(null)).toBeNull();
  });
});
