import { describe, expect, it } from 'vitest';
import type { Harness } from './harness.ts';
import { type Paged, resourcesHarness } from './resources/helpers.ts';

interface Command {
  id: string;
  name: string;
  content: string;
  owner: string;
  ownerName?: string;
  created: string;
}

/** Every command row as stored, to show that a refused call changed nothing. */
const snapshot = (h: Harness) => h.db.selectFrom('commands').selectAll().orderBy('id').execute();

async function twoUsers() {
  const r = await resourcesHarness();
  const aliceId = await r.h.createUser({ username: 'alice', type: 'user' });
  const bobId = await r.h.createUser({ username: 'bob', type: 'user' });
  const alice = r.as(await r.h.accessToken(aliceId));
  const bob = r.as(await r.h.accessToken(bobId));
  return { ...r, aliceId, bobId, alice, bob };
}

describe('/worker/commands: the caller’s own commands', () => {
  it('creates, reads, lists, updates and deletes the caller’s commands', async () => {
    const { h, alice, aliceId } = await twoUsers();
    const content = 'tail -f /var/log/syslog\n';
    const created = await alice.ok<Command>('POST', '/worker/commands', { body: { name: ' logs ', content } });
    expect(created).toEqual({ id: created.id, name: 'logs', content, owner: aliceId, created: expect.stringMatching(/^\d{4}-/) });
    expect(await h.db.selectFrom('commands').select(['name', 'owner']).execute()).toEqual([{ name: 'logs', owner: aliceId }]);
    expect(await alice.ok('GET', `/worker/commands/${created.id}`)).toEqual(created);
    expect(await alice.ok('GET', '/worker/commands')).toEqual([created]);
    expect(await alice.ok<Paged<Command>>('GET', '/worker/commands/paging')).toEqual({ total: 1, items: [{ ...created, ownerName: '' }] });
    expect(await alice.ok('PUT', `/worker/commands/${created.id}`, { body: { name: 'logs', content: 'journalctl -f' } })).toBeNull();
    expect(await alice.ok('GET', `/worker/commands/${created.id}`)).toMatchObject({ content: 'journalctl -f' });
    await alice.ok('DELETE', `/worker/commands/${created.id}`);
    expect(await snapshot(h)).toEqual([]);
  });

  it('lists and pages only the caller’s, with real totals, filters and sorting', async () => {
    const { h, api, alice, bob } = await twoUsers();
    for (const [name, content] of [
      ['disk', 'df -h'],
      ['load', 'uptime'],
      ['disk inodes', 'df -i'],
    ]) {
      h.clock.advance(1000);
      await alice.ok('POST', '/worker/commands', { body: { name, content } });
    }
    await bob.ok('POST', '/worker/commands', { body: { name: 'disk bob', content: 'df' } });
    await api.ok('POST', '/commands', { body: { name: 'disk admin', content: 'df' } });
    const page = (q: string) => alice.ok<Paged<Command>>('GET', `/worker/commands/paging?${q}`);
    const names = (p: Paged<Command>) => p.items.map((c) => c.name);
    expect(await page('')).toMatchObject({ total: 3 });
    expect(names(await page(''))).toEqual(['disk inodes', 'load', 'disk']);
    expect(await page('pageIndex=2&pageSize=2')).toMatchObject({ total: 3, items: [{ name: 'disk' }] });
    expect(await page('name=disk')).toMatchObject({ total: 2 });
    expect(names(await page('content=-h'))).toEqual(['disk']);
    expect(names(await page('field=name&order=ascend'))).toEqual(['disk', 'disk inodes', 'load']);
    expect((await alice.ok<Command[]>('GET', '/worker/commands')).map((c) => c.name)).toEqual(['disk', 'disk inodes', 'load']);
    expect((await bob.ok<Command[]>('GET', '/worker/commands')).map((c) => c.name)).toEqual(['disk bob']);
    expect(await bob.ok<Paged<Command>>('GET', '/worker/commands/paging?name=disk')).toMatchObject({ total: 1, items: [{ name: 'disk bob' }] });
  });

  it('answers another user’s command exactly like an unknown one, and changes nothing (IDOR)', async () => {
    const { h, api, alice, bob } = await twoUsers();
    const mine = await alice.ok<Command>('POST', '/worker/commands', { body: { name: 'mine', content: 'id' } });
    const theirs = await bob.ok<Command>('POST', '/worker/commands', { body: { name: 'theirs', content: 'whoami' } });
    const admins = await api.ok<Command>('POST', '/commands', { body: { name: 'admins', content: 'reboot' } });
    const before = await snapshot(h);

    for (const id of [theirs.id, admins.id, 'ghost']) {
      const notFound = { code: -1, message: `动态指令不存在：${id}` };
      expect((await alice.call('GET', `/worker/commands/${id}`)).body, id).toEqual(notFound);
      expect((await alice.call('PUT', `/worker/commands/${id}`, { body: { name: 'pwned', content: 'rm -rf /' } })).body, id).toEqual(notFound);
      expect((await alice.call('DELETE', `/worker/commands/${id}`)).body, id).toEqual({ ...notFound, data: [id] });
    }
    // One foreign id among the caller's own refuses the whole delete, naming only what is not hers.
    expect((await alice.call('DELETE', `/worker/commands/${mine.id},${theirs.id}`)).body).toEqual({ code: -1, message: `动态指令不存在：${theirs.id}`, data: [theirs.id] });
    expect((await alice.call('DELETE', `/worker/commands/${theirs.id},${mine.id},ghost`)).body).toEqual({
      code: -1,
      message: `动态指令不存在：${theirs.id}, ghost`,
      data: [theirs.id, 'ghost'],
    });
    // 1.3.9 checked the comma string as one id (quirk 31): a list made of someone else's ids only.
    expect((await alice.call('DELETE', `/worker/commands/${theirs.id},${admins.id}`)).body.code).toBe(-1);
    expect(await snapshot(h)).toEqual(before);

    // Nobody else's command shows in her lists either.
    expect((await alice.ok<Command[]>('GET', '/worker/commands')).map((c) => c.id)).toEqual([mine.id]);
    expect(await alice.ok<Paged<Command>>('GET', '/worker/commands/paging?name=theirs')).toEqual({ total: 0, items: [] });

    // Her own comma delete works; his command stays.
    const second = await alice.ok<Command>('POST', '/worker/commands', { body: { name: 'second', content: 'ls' } });
    await alice.ok('DELETE', `/worker/commands/${mine.id},${second.id}`);
    expect((await snapshot(h)).map((c) => c.name).sort()).toEqual(['admins', 'theirs']);
  });

  it('is open to any signed-in user, validates like /commands, refuses anonymous calls', async () => {
    const { h, alice } = await twoUsers();
    expect((await h.call('GET', '/worker/commands/paging')).body.code).toBe(401);
    expect((await alice.call('POST', '/worker/commands', { body: { name: '', content: 'ls' } })).body).toEqual({ code: 400, message: 'name: required' });
    expect((await alice.call('POST', '/worker/commands', { body: { name: 'a', content: '  ' } })).body).toEqual({ code: 400, message: 'content: required' });
    expect((await alice.call('POST', '/worker/commands', { body: { name: 'a', content: 'x'.repeat(64 * 1024 + 1) } })).body.code).toBe(400);
    expect((await alice.call('GET', '/worker/commands/paging?pageSize=0')).body.code).toBe(400);
    expect(await snapshot(h)).toEqual([]);
  });
});
