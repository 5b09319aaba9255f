import { describe, expect, it } from 'vitest';
import { type FormField, validateField, validateValues } from '../../../core/ui';
import { createTestI18n } from './render';
import { dataKeyT } from '../../../core/i18n/types';

const i18n = createTestI18n('zh-CN');
const t = (k: string, v?: Record<string, unknown>) => dataKeyT(i18n.t.bind(i18n))(k, { ns: 'kit', ...v });

type V = Record<string, unknown>;
const check = (field: FormField<V>, value: unknown, values: V = {}) => validateField(field, value, values, t);

describe('validateField (zh-CN messages)', () => {
  it('required: input vs select wording; empty optional values pass', () => {
    expect(check({ name: 'name', label: '名称', required: true }, '')).toBe('请输入名称');
    expect(check({ name: 'name', label: '名称', required: true }, '   ')).toBe('请输入名称');
    expect(check({ name: 'p', label: '协议', type: 'select', required: true }, undefined)).toBe('请选择协议');
    expect(check({ name: 't', label: '标签', type: 'multiselect', required: true }, [])).toBe('请选择标签');
    expect(check({ name: 'name', label: '名称', minLength: 3 }, '')).toBeUndefined();
  });
  it('length', () => {
    expect(check({ name: 'n', label: '密码', minLength: 6 }, 'abc')).toBe('密码至少为6个字符');
    expect(check({ name: 'n', label: '名称', maxLength: 4 }, 'abcde')).toBe('名称最多为4个字符');
    expect(check({ name: 'n', label: '名称', minLength: 1, maxLength: 4 }, 'abcd')).toBeUndefined();
  });
  it('range and number type', () => {
    expect(check({ name: 'port', label: '端口', type: 'number', min: 1, max: 65535 }, 70000)).toBe(
      '端口必须在1和65535之间',
    );
    expect(check({ name: 'port', label: '端口', type: 'number', min: 1, max: 65535 }, 22)).toBeUndefined();
    expect(check({ name: 'n', label: '数量', type: 'number', min: 1 }, 0)).toBe('数量不能小于1');
    expect(check({ name: 'n', label: '数量', type: 'number', max: 9 }, 10)).toBe('数量不能大于9');
    expect(check({ name: 'n', label: '数量', type: 'number' }, 'x')).toBe('数量不是一个有效的数字');
  });
  it('email, pattern, custom', () => {
    expect(check({ name: 'mail', label: '邮箱', type: 'email' }, 'nope')).toBe('邮箱不是一个有效的邮箱');
    expect(check({ name: 'mail', label: '邮箱', type: 'email' }, 'a@b.cn')).toBeUndefined();
    expect(check({ name: 'ip', label: 'IP', pattern: /^\d+\.\d+\.\d+\.\d+$/ }, 'x')).toBe('IP格式不正确');
    expect(check({ name: 'ip', label: 'IP', pattern: /^\d+$/, patternMessage: '只能是数字' }, 'x')).toBe('只能是数字');
    const confirmField: FormField<V> = {
      name: 'confirm',
      label: '确认密码',
      validate: (v, values) => (v === values.password ? undefined : '两次输入的密码不一致'),
    };
    expect(check(confirmField, 'a', { password: 'b' })).toBe('两次输入的密码不一致');
    expect(check(confirmField, 'b', { password: 'b' })).toBeUndefined();
  });
  it('validateValues skips hidden fields', () => {
    const fields: FormField<V>[] = [
      { name: 'type', label: '类型', type: 'select', required: true },
      { name: 'password', label: '密码', required: true, visible: (v) => v.type === 'password' },
    ];
    expect(validateValues(fields, { type: 'key' }, t)).toEqual({});
    expect(validateValues(fields, { type: 'password' }, t)).toEqual({ password: '请输入密码' });
    expect(validateValues(fields, {}, t)).toEqual({ type: '请选择类型' });
  });
});
