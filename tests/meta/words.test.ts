import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// One word for each thing (issue 27, "Words"): the console says 登录账号 (never 登录账户), 历史会话 (never 离线会话列表),
// 保存成功 after a form saves (操作成功 is for other actions that have no word of their own), and English that counts.

const root = join(__dirname, '..', '..', 'locales');

function strings(lng: string): [string, string][] {
  return readdirSync(join(root, lng))
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => {
      const out: [string, string][] = [];
      const walk = (node: unknown, path: string) => {
        if (typeof node === 'string') out.push([path, node]);
        else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, path ? `${path}.${k}` : k);
      };
      walk(JSON.parse(readFileSync(join(root, lng, f), 'utf8')), `${f.replace(/\.json$/, '')}:`);
      return out;
    });
}

describe('one word for each thing', () => {
  const zh = strings('zh-CN');
  const en = strings('en-US');

  it('zh-CN uses none of the rejected variants', () => {
    const rejected = [/登录账户/, /离线会话列表/, /帐号|帐户/];
    expect(zh.filter(([, text]) => rejected.some((r) => r.test(text)))).toEqual([]);
  });

  it('a save says 保存成功 (a key named `saved`, and the forms’ shared `success`)', () => {
    const saves = zh.filter(([key]) => /\.saved$|^identity:common\.success$/.test(key));
    expect(saves.length).toBeGreaterThan(5);
    expect(saves.filter(([, text]) => text !== '保存成功')).toEqual([]);
  });

  it('English counts: a string that puts a noun after {{count}} has a singular (`_one`)', () => {
    const keys = new Set(en.map(([key]) => key));
    const counted = en.filter(([key, text]) => !key.endsWith('_one') && /\{\{count\}\} (?:selected )?[a-z]+s\b/.test(text));
    expect(counted.length).toBeGreaterThan(5);
    expect(counted.filter(([key]) => !keys.has(`${key}_one`)).map(([key]) => key)).toEqual([]);
  });

  it('English says what an English-speaking administrator would', () => {
    const chinglish = [/Personal centre/i, /Log audit/i, /Total \{\{/, /Version:/, /Please enter your account/i];
    expect(en.filter(([, text]) => chinglish.some((r) => r.test(text)))).toEqual([]);
  });
});
