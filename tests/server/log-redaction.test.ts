import { describe, expect, it } from 'vitest';
import { defineModule, route } from '../../server/http/routes.ts';
import { ADMIN_PASSWORD, startHarness } from './harness.ts';

/** A route with a bug: its 500 is logged with the URL. */
const broken = defineModule('broken', () => [
  route({
    method: 'GET',
    path: '/broken',
    allow: 'authenticated',
    handler: () => {
      throw new Error('a bug');
    },
  }),
]);

/** A harness whose server log (the product's logger options) is kept as lines. */
async function loggedHarness() {
  const lines: string[] = [];
  const h = await startHarness({ modules: [broken], logStream: { write: (line) => void lines.push(line) } });
  return { h, lines };
}

describe('the server log never carries a login token', () => {
  it('downloads answer once: no "Reply was already sent" warning (it carried the URL with ?X-Auth-Token=)', async () => {
    const { h, lines } = await loggedHarness();
    const token = await h.login('admin', ADMIN_PASSWORD);
    const byQuery = await h.call('GET', `/assets/export?X-Auth-Token=${token}`);
    expect(byQuery.status).toBe(200);
    expect(byQuery.headers['content-type']).toMatch(/^text\/csv/);
    const byHeader = await h.call('GET', '/assets/export', { token });
    expect(byHeader.status).toBe(200);
    expect(byHeader.headers['content-disposition']).toMatch(/^attachment/);
    expect(lines.filter((l) => l.includes('already sent'))).toEqual([]);
    expect(lines.filter((l) => l.includes(token))).toEqual([]);
  });

  it('a logged error names the URL without the X-Auth-Token query parameter', async () => {
    const { h, lines } = await loggedHarness();
    const token = await h.login('admin', ADMIN_PASSWORD);
    const res = await h.call('GET', `/broken?a=1&X-Auth-Token=${token}&b=2`);
    expect(res.body).toMatchObject({ code: 500 });
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; url?: string }).filter((l) => l.msg === 'unhandled error');
    expect(logged).toHaveLength(1);
    expect(logged[0]!.url).toBe('/broken?a=1&X-Auth-Token=REDACTED&b=2');
    expect(lines.filter((l) => l.includes(token))).toEqual([]);
  });

  it('a message or a header that quotes the token is cleaned too', async () => {
    const { h, lines } = await loggedHarness();
    const token = 'f'.repeat(128);
    h.app.log.warn({ headers: { 'x-auth-token': token } }, `see "/sessions/1/recording?X-Auth-Token=${token}" (GET)`);
    h.app.log.error(new Error(`failed: /assets/export?x-auth-token=${token}&a=1`));
    expect(lines).toHaveLength(2);
    expect(lines.filter((l) => l.includes(token))).toEqual([]);
    expect(lines[0]).toContain('recording?X-Auth-Token=REDACTED');
  });
});
