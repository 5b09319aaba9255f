import { describe, expect, it } from 'vitest';
import { isHost } from '../../shared/host.ts';

describe('isHost: what an asset or a gateway may name as its host', () => {
  it('takes IPv4, IPv6 and host names', () => {
    for (const ok of ['10.0.0.1', '0.0.0.0', '255.255.255.255', '::1', '::', 'fe80::1', '2001:db8::8a2e:370:7334', '1:2:3:4:5:6:7:8', '::ffff:192.0.2.1', 'localhost', 'db-1', 'web_01.corp', 'prod.example.com', 'prod.example.com.', 'k8s.local', '1password.com', 'x1', '服务器.公司']) {
      expect(isHost(ok), ok).toBe(true);
    }
  });

  it('refuses what is neither an address nor a name', () => {
    for (const bad of ['', '999.1.1.1', '1.1.1.1.1', '10.0.0.01', '1:2:3:4:5:6:7:8:9', '1::2::3', '12345::1', 'a b', '<b>x</b>', 'http://x.com/', 'x.com/path', '-db', 'db-', 'a..b', '.', `${'a'.repeat(64)}.com`, `${'a.'.repeat(127)}com`, 'host:22', 'fe80::1%eth0']) {
      expect(isHost(bad), bad).toBe(false);
    }
  });
});
