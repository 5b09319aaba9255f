import { describe, expect, it } from 'vitest';
import type { ImportAnswer } from '../../../server/modules/assets/csv.ts';
import { assetHarness, csvUpload, sshAsset } from './helpers.ts';

/** C0 (NUL, BEL, ESC, a tab inside), DEL, C1 (CSI), a zero-width space, a bidi override, a line separator. */
const ODD = ['a\u0000b', 'a\u0007b', 'a\u001b[31mb', 'a\tb', 'a\u007fb', 'a\u009bb', 'a\u200bb', 'a\u202eb', 'a\u2028b'];

describe('asset names and tags refuse control and format characters', () => {
  it('POST and PUT /assets: 400 naming the field, in Chinese', async () => {
    const { h, api } = await assetHarness();
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'web-1' }) });
    for (const name of ODD) {
      for (const [method, url] of [
        ['POST', '/assets'],
        ['PUT', `/assets/${id}`],
      ] as const) {
        expect((await api.call(method, url, { body: sshAsset({ name }) })).body, `${method} ${JSON.stringify(name)}`).toEqual({
          code: 400,
          message: 'name: 资产名称不能包含控制字符、零宽或格式字符',
        });
      }
      expect((await api.call('POST', '/assets', { body: sshAsset({ name: 'web-2', tags: `ok,${name}` }) })).body).toEqual({
        code: 400,
        message: 'tags: 标签不能包含控制字符、零宽或格式字符',
      });
    }
    expect((await h.db.selectFrom('assets').select('name').execute()).map((a) => a.name)).toEqual(['web-1']);
    // Other scripts, emoji and edge spaces (trimmed) are fine.
    await api.ok('POST', '/assets', { body: sshAsset({ name: ' 服务器-Ω 😀 ', tags: '生产,émoji😀' }) });
  });

  it('the CSV import reports such a name or tag on its row', async () => {
    const { api } = await assetHarness();
    const answer = await api.ok<ImportAnswer>('POST', '/assets/import', csvUpload(['a\u001b[2Jb,ssh,10.0.0.1,22,u,,,,d', 'c,ssh,10.0.0.2,22,u,,,,d,x|t\u0000', 'good,ssh,10.0.0.3,22,u,,,,d'].join('\r\n')));
    expect(answer).toMatchObject({ successCount: 1, errorCount: 2, data: { 1: '资产名称不能包含控制字符、零宽或格式字符', 2: '标签不能包含控制字符、零宽或格式字符' } });
  });
});
