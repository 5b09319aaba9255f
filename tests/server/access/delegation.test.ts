import { describe, expect, it } from 'vitest';
import { sign } from '../../../server/lib/ids.ts';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { adminWith } from '../identity/helpers.ts';
import { accessHarness } from './helpers.ts';

/*
 * Issue 28, rule 1: delegation never widens. Nobody but the super admin changes the grants that apply to itself, and
 * a grant handed to another is never broader than what the giver holds on that asset; a stricter grant is never
 * silently replaced.
 */

const HOUR = 3_600_000;
const OFF = { upload: false, download: false, delete: false, rename: false, edit: false, createDir: false, copy: false, paste: false };
const SELF_GRANTS = '不能调整授予您自己或您所在用户组的资产授权：只有超级管理员可以';

/** Every key that binds or unbinds (and edits or deletes groups), so only the rules below stand in the way. */
const GRANTING = [
  'user-bind-asset',
  'user-unbind-asset',
  'user-group-bind-asset',
  'user-group-unbind-asset',
  'asset-authorised-user-add',
  'asset-authorised-user-del',
  'asset-authorised-user-group-add',
  'asset-authorised-user-group-del',
  'authorisation-add',
  'authorisation-del',
  'user-group-edit',
  'user-group-del',
] as const;

async function seeded() {
  const t = await accessHarness();
  const a = await t.asset('prod-db');
  const b = await t.asset('web');
  const readOnly = (await t.api.ok<{ id: string }>('POST', '/strategies', { body: { name: '只读', ...OFF, download: true } })).id;
  const loose = (await t.api.ok<{ id: string }>('POST', '/strategies', { body: { name: '上传下载', ...OFF, download: true, upload: true } })).id;
  const none = (await t.api.ok<{ id: string }>('POST', '/strategies', { body: { name: '全禁', ...OFF } })).id;
  const narrow = await adminWith(t.h, GRANTING, 'narrow');
  // The narrow admin's own grant: read-only, for one hour.
  await t.api.ok('POST', '/authorised/assets', { body: { assetIds: [a], userId: narrow.id, strategyId: readOnly, validUntil: t.at(HOUR) } });
  const own = sign([a, narrow.id, '']);
  return { t, a, b, readOnly, loose, none, narrow, own, as: t.as(narrow.token) };
}

describe('delegation never widens: grants that apply to oneself', () => {
  it('a user-bind-asset holder cannot replace its own read-only, one-hour grant with an unrestricted one (the reproduction)', async () => {
    const { t, a, narrow, own, as } = await seeded();
    const before = await t.grants();
    const res = await as.call('POST', '/authorised/assets', { body: { assetIds: [a], userId: narrow.id, strategyId: '' } });
    expect(res.body).toEqual({ code: -1, message: SELF_GRANTS });
    expect(await t.grants()).toEqual(before);
    expect(await t.explain(narrow.id, a)).toMatchObject({ allowed: true, via: 'user', strategy: { name: '只读' }, grants: [{ id: own, validUntil: t.at(HOUR), wins: true }] });
    // In English too.
    expect((await as.call('POST', '/authorised/assets', { body: { assetIds: [a], userId: narrow.id }, query: { lng: 'en-US' } })).body.message).toBe(
      'You cannot change grants to yourself or to a group you are in: only the super admin may',
    );
  });

  it('nor through any other bind route, a group it is in, the bulk grant, or by removing its own (stricter) grant', async () => {
    const { t, a, b, narrow, own, as } = await seeded();
    const plain = await t.user('plain');
    const mine = await t.group('mine', [narrow.id, plain.id]);
    // The group it is in holds b without restriction; its own grant on a is the stricter one that wins.
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [mine], assetId: a } });
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [mine], assetId: b } });
    const before = await t.grants();
    const refused = async (method: string, url: string, body?: unknown) => expect((await as.call(method, url, { body })).body, `${method} ${url}`).toEqual({ code: -1, message: SELF_GRANTS });
    await refused('POST', '/authorised/users', { userIds: [narrow.id], assetId: b });
    await refused('POST', '/authorised/users', { userIds: [plain.id, narrow.id], assetId: a });
    await refused('POST', '/authorised/user-groups', { userGroupIds: [mine], assetId: a, validUntil: t.at(HOUR) });
    await refused('POST', '/authorised/assets', { assetIds: [b], userGroupId: mine });
    await refused('POST', '/authorised/bulk', { userIds: [narrow.id], assetIds: [b] });
    await refused('POST', '/authorised/bulk', { userGroupIds: [mine], assetIds: [a] });
    // Removing its own read-only grant would let the group's unrestricted one win.
    await refused('DELETE', `/authorised/${own}`);
    await refused('DELETE', `/authorised/${sign([b, '', mine])}`);
    expect(await t.grants()).toEqual(before);
    expect((await t.explain(narrow.id, a)).strategy).toMatchObject({ name: '只读' });
    // The super admin may change its own grants (it needs none).
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [SUPER_ADMIN_ID], assetId: a } });
  });
});

describe('delegation never widens: one\'s own group memberships', () => {
  const SELF_GROUPS = '不能调整您自己的用户组成员身份：只有超级管理员可以';

  it('a user-group-edit holder cannot add itself to a group and so open its assets (the reproduction)', async () => {
    const t = await accessHarness();
    const vault = await t.asset('vault');
    const plain = await t.user('plain');
    const editor = await adminWith(t.h, ['user-group', 'user-group-edit', 'user-group-add', 'user-group-del'], 'editor');
    const g = await t.group('dba', [plain.id]);
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [g], assetId: vault } });
    const as = t.as(editor.token);
    const members = () => t.h.db.selectFrom('userGroupMembers').select('userId').where('userGroupId', '=', g).orderBy('userId').execute();
    const before = await members();

    expect((await as.call('PUT', `/user-groups/${g}`, { body: { name: 'dba', members: [plain.id, editor.id] } })).body).toEqual({ code: -1, message: SELF_GROUPS });
    expect(await members()).toEqual(before);
    expect(await t.sees(editor.token)).toEqual([]);
    expect((await t.explain(editor.id, vault)).allowed).toBe(false);
    // Nor by creating a group with itself in it.
    expect((await as.call('POST', '/user-groups', { body: { name: 'mine', members: [editor.id] } })).body).toEqual({ code: -1, message: SELF_GROUPS });
    expect(await t.h.db.selectFrom('userGroups').select('name').where('name', '=', 'mine').execute()).toEqual([]);
    // Others it may act on: fine.
    const other = await t.user('other');
    await as.ok('POST', '/user-groups', { body: { name: 'theirs', members: [other.id] } });
  });

  it('adding others to a group hands them its grants: only grants the editor could give itself', async () => {
    const t = await accessHarness();
    const vault = await t.asset('vault');
    const web = await t.asset('web');
    const readOnly = (await t.api.ok<{ id: string }>('POST', '/strategies', { body: { name: '只读', ...OFF, download: true } })).id;
    const editor = await adminWith(t.h, ['user-group', 'user-group-edit'], 'editor');
    await t.api.ok('POST', '/authorised/assets', { body: { assetIds: [vault, web], userId: editor.id, strategyId: readOnly } });
    const dba = await t.group('dba', []);
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [dba], assetId: vault } });
    const ann = await t.user('ann');
    const as = t.as(editor.token);
    expect((await as.call('PUT', `/user-groups/${dba}`, { body: { name: 'dba', members: [ann.id] } })).body).toMatchObject({
      code: -1,
      message: '不能授予比您自己的授权更宽的授权：资产「vault」上，您的授权受授权策略「只读」限制，新授权不能没有授权策略',
    });
    expect(await t.sees(ann.token)).toEqual([]);
    // A group whose grants are within the editor's own: fine.
    const readers = await t.group('readers', []);
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [readers], assetId: web, strategyId: readOnly } });
    await as.ok('PUT', `/user-groups/${readers}`, { body: { name: 'readers', members: [ann.id] } });
    expect(await t.sees(ann.token)).toEqual(['web']);
  });

  it('nor leave a group, or delete one it is in (a stricter group grant could stop winning)', async () => {
    const t = await accessHarness();
    const editor = await adminWith(t.h, ['user-group', 'user-group-edit', 'user-group-del'], 'editor');
    const plain = await t.user('plain');
    const g = await t.group('strict', [editor.id, plain.id]);
    const as = t.as(editor.token);
    expect((await as.call('PUT', `/user-groups/${g}`, { body: { name: 'strict', members: [plain.id] } })).body).toEqual({ code: -1, message: SELF_GROUPS });
    expect((await as.call('DELETE', `/user-groups/${g}`)).body).toEqual({ code: -1, message: SELF_GROUPS });
    expect(await t.h.db.selectFrom('userGroupMembers').select('userId').where('userGroupId', '=', g).execute()).toHaveLength(2);
    // Renaming it, its own membership unchanged, is no change to itself.
    await as.ok('PUT', `/user-groups/${g}`, { body: { name: 'renamed', members: [editor.id, plain.id] } });
    // The super admin may change its own memberships.
    await t.api.ok('PUT', `/user-groups/${g}`, { body: { name: 'renamed', members: [editor.id, plain.id, SUPER_ADMIN_ID] } });
  });
});

describe('delegation never widens: granting to others', () => {
  it('a grant is never broader than the giver holds: its strategy and its end', async () => {
    const { t, a, readOnly, loose, none, as } = await seeded();
    const ann = await t.user('ann');
    const ops = await t.group('ops', [ann.id]);
    const before = await t.grants();
    const refusal = (text: string) => ({ code: -1, message: `不能授予比您自己的授权更宽的授权：资产「prod-db」上，${text}`, data: [a] });
    const noStrategy = '您的授权受授权策略「只读」限制，新授权不能没有授权策略';
    const until = `您的授权有效期至 ${t.at(HOUR)}，新授权须在此之前结束`;
    // No strategy = unrestricted, and open-ended: both broader.
    expect((await as.call('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: a } })).body).toEqual(refusal(`${noStrategy}；${until}`));
    expect((await as.call('POST', '/authorised/user-groups', { body: { userGroupIds: [ops], assetId: a, validUntil: t.at(HOUR) } })).body).toEqual(refusal(noStrategy));
    // A strategy allowing what its own does not (upload).
    expect((await as.call('POST', '/authorised/assets', { body: { assetIds: [a], userId: ann.id, strategyId: loose, validUntil: t.at(HOUR) } })).body).toEqual(
      refusal('新授权的授权策略「上传下载」允许您的授权的授权策略「只读」不允许的操作（上传）'),
    );
    // A window ending after its own.
    expect((await as.call('POST', '/authorised/bulk', { body: { userIds: [ann.id], userGroupIds: [ops], assetIds: [a], strategyId: readOnly, validUntil: t.at(2 * HOUR) } })).body).toEqual(
      refusal(until),
    );
    expect((await as.call('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: a, strategyId: readOnly, validFrom: t.at(HOUR / 2) } })).body).toEqual(refusal(until));
    expect(await t.grants()).toEqual(before);

    // As strict or stricter, within its window: granted.
    await as.ok('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: a, strategyId: readOnly, validUntil: t.at(HOUR) } });
    await as.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [ops], assetId: a, strategyId: none, validFrom: t.at(HOUR / 4), validUntil: t.at(HOUR / 2) } });
    expect((await t.explain(ann.id, a)).strategy).toMatchObject({ name: '只读' });
  });

  it('only an owner, an unrestricted holder or the super admin grants without restriction', async () => {
    const t = await accessHarness();
    const ann = await t.user('ann');
    const giver = await adminWith(t.h, ['asset-add', ...GRANTING], 'giver');
    const as = t.as(giver.token);
    const mine = (await as.ok<{ id: string }>('POST', '/assets', { body: { name: 'mine', protocol: 'ssh', ip: '10.9.0.1', port: 22, accountType: 'custom', username: 'root' } })).id;
    const given = await t.asset('given');
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [giver.id], assetId: given } });
    // Owner, and holder of an unrestricted, open-ended grant: anything.
    await as.ok('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: mine } });
    await as.ok('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: given } });
    expect(await t.sees(ann.token)).toEqual(['given', 'mine']);
  });

  it('handing an asset over (change-owner) needs it held without restriction, and never to oneself', async () => {
    const { t, a, readOnly } = await seeded();
    const changer = await adminWith(t.h, ['asset-change-owner', ...GRANTING], 'changer');
    const [bob, ann] = [await t.user('bob'), await t.user('ann')];
    await t.h.db.updateTable('assets').set({ owner: bob.id }).where('id', '=', a).execute();
    const ownerOf = async () => (await t.h.db.selectFrom('assets').select('owner').where('id', '=', a).executeTakeFirstOrThrow()).owner;
    // Read-only for one hour: ownership (unrestricted, for ever) is broader.
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [changer.id], assetId: a, strategyId: readOnly, validUntil: t.at(HOUR) } });
    const as = t.as(changer.token);
    expect((await as.call('POST', `/assets/${a}/change-owner`, { query: { owner: ann.id } })).body).toMatchObject({
      code: -1,
      message: `不能授予比您自己的授权更宽的授权：资产「prod-db」上，您的授权受授权策略「只读」限制，新授权不能没有授权策略；您的授权有效期至 ${t.at(HOUR)}，新授权须在此之前结束`,
    });
    expect(await ownerOf()).toBe(bob.id);
    // Given the asset without restriction, it may hand it to another, but not take it for itself.
    await t.api.ok('DELETE', `/authorised/${sign([a, changer.id, ''])}`);
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [changer.id], assetId: a } });
    expect((await as.call('POST', `/assets/${a}/change-owner`, { query: { owner: changer.id } })).body).toEqual({
      code: -1,
      message: '不能把其他账户的记录转给您自己：只有超级管理员可以',
    });
    expect(await ownerOf()).toBe(bob.id);
    await as.ok('POST', `/assets/${a}/change-owner`, { query: { owner: ann.id } });
    expect(await ownerOf()).toBe(ann.id);
  });
});

describe('a removal never lets a broader grant decide', () => {
  it('unbinding a user\'s stricter grant, or taking it out of the stricter group, is refused when what would win is broader than the remover holds', async () => {
    const { t, a, readOnly, narrow } = await seeded();
    const as = t.as(narrow.token);
    const ann = await t.user('ann');
    const ben = await t.user('ben');
    const open = await t.group('open', [ann.id, ben.id]);
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [open], assetId: a } });
    // ann: her personal read-only grant beats the group's unrestricted one.
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: a, strategyId: readOnly } });
    // ben: the newer group grant (read-only) beats the older unrestricted one.
    t.h.clock.advance(1000);
    const strict = await t.group('strict', [ben.id]);
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [strict], assetId: a, strategyId: readOnly } });
    const before = await t.grants();
    const members = () => t.h.db.selectFrom('userGroupMembers').select(['userGroupId', 'userId']).orderBy('userGroupId').orderBy('userId').execute();
    const memberships = await members();
    const widens = (who: string) => ({
      code: -1,
      message: expect.stringMatching(new RegExp(`^移除后，账户「${who}」在资产「prod-db」上将由一个比您自己的更宽的授权决定：您的授权受授权策略「只读」限制`)),
    });
    expect((await as.call('DELETE', `/authorised/${sign([a, ann.id, ''])}`)).body).toMatchObject(widens('ann'));
    expect((await as.call('DELETE', `/authorised/${sign([a, '', strict])}`)).body).toMatchObject(widens('ben'));
    expect((await as.call('PUT', `/user-groups/${strict}`, { body: { name: 'strict', members: [] } })).body).toMatchObject(widens('ben'));
    expect((await as.call('DELETE', `/user-groups/${strict}`)).body).toMatchObject(widens('ben'));
    expect(await t.grants()).toEqual(before);
    expect(await members()).toEqual(memberships);
    expect((await t.explain(ann.id, a)).strategy).toMatchObject({ name: '只读' });
    expect((await t.explain(ben.id, a)).strategy).toMatchObject({ name: '只读' });

    // Taking ben out of the open group narrows him: fine. And the super admin may do the rest.
    await as.ok('PUT', `/user-groups/${open}`, { body: { name: 'open', members: [ann.id] } });
    await t.api.ok('DELETE', `/authorised/${sign([a, ann.id, ''])}`);
    expect((await t.explain(ann.id, a)).strategy).toBeNull();
  });
});

describe('re-granting never silently replaces a stricter grant', () => {
  it('refuses a broader re-grant of the same pair, even by the super admin; a stricter one, or an expired one, is replaced', async () => {
    const { t, a, readOnly, loose } = await seeded();
    const ann = await t.user('ann');
    const id = sign([a, ann.id, '']);
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: a, strategyId: readOnly, validFrom: t.at(HOUR), validUntil: t.at(3 * HOUR) } });
    const before = await t.grants();
    const stricter = (why: string) => ({ code: -1, message: `已有更严格的授权（prod-db → ann）：${why}。请先移除现有授权，再重新授权`, data: [id] });
    expect((await t.api.call('POST', '/authorised/assets', { body: { assetIds: [a], userId: ann.id, strategyId: '' } })).body).toMatchObject(
      stricter(`现有授权受授权策略「只读」限制，新授权不能没有授权策略；现有授权有效期至 ${t.at(3 * HOUR)}，新授权须在此之前结束；现有授权自 ${t.at(HOUR)} 起生效，新授权不能更早开始`),
    );
    expect((await t.api.call('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: a, strategyId: loose, validFrom: t.at(HOUR), validUntil: t.at(3 * HOUR) } })).body).toMatchObject(
      stricter('新授权的授权策略「上传下载」允许现有授权的授权策略「只读」不允许的操作（上传）'),
    );
    expect((await t.api.call('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: a, strategyId: readOnly, validUntil: t.at(3 * HOUR) } })).body).toMatchObject(
      stricter(`现有授权自 ${t.at(HOUR)} 起生效，新授权不能更早开始`),
    );
    expect(await t.grants()).toEqual(before);
    // The explanation still shows the grant, pending.
    expect((await t.explain(ann.id, a)).grants).toEqual([expect.objectContaining({ id, state: 'pending', strategyName: '只读' })]);

    // Narrower: replaced.
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: a, strategyId: readOnly, validFrom: t.at(2 * HOUR), validUntil: t.at(3 * HOUR) } });
    expect((await t.grants()).find((g) => g.id === id)).toMatchObject({ validFrom: t.h.clock.now() + 2 * HOUR });
    // Expired: it gives nothing, and is renewed with any terms.
    t.h.clock.advance(4 * HOUR);
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: a } });
    expect((await t.grants()).find((g) => g.id === id)).toMatchObject({ strategyId: null, validFrom: null, validUntil: null });
  });
});
