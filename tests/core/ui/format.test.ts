import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formatBytes, formatDateTime, formatDuration, fromNow } from '../../../core/ui';
import { createTestI18n } from './render';
import { dataKeyT } from '../../../core/i18n/types';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [null, '0 B'],
    [undefined, '0 B'],
    ['', '0 B'],
    [1, '1.00 B'],
    [1023, '1023.00 B'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1.5 * 1024 ** 3, '1.50 GB'],
    [1024 ** 4, '1.00 TB'],
    [1024 ** 8, '1.00 YB'],
    [1024 ** 9, '1024.00 YB'],
  ] as const)('%s → %s', (input, expected) => {
    expect(formatBytes(input)).toBe(expected);
  });
});

describe('formatDateTime', () => {
  it('shows the server string as is', () => {
    expect(formatDateTime('2023-05-21 10:04:05')).toBe('2023-05-21 10:04:05');
  });
  it('shows the zero date and empty values as -', () => {
    expect(formatDateTime('0001-01-01 00:00:00')).toBe('-');
    expect(formatDateTime('')).toBe('-');
    expect(formatDateTime(null)).toBe('-');
    expect(formatDateTime(undefined)).toBe('-');
  });
  it('formats other date inputs as YYYY-MM-DD HH:mm:ss', () => {
    expect(formatDateTime(new Date(2024, 1, 29, 8, 3, 9))).toBe('2024-02-29 08:03:09');
  });
});

describe('fromNow', () => {
  it('is relative and - for the zero date', () => {
    dayjs.locale('en');
    expect(fromNow(dayjs().subtract(3, 'hour').format('YYYY-MM-DD HH:mm:ss'))).toBe('3 hours ago');
    expect(fromNow('0001-01-01 00:00:00')).toBe('-');
  });
});

describe('formatDuration', () => {
  const zh = createTestI18n('zh-CN');
  const en = createTestI18n('en-US');
  const tz = (k: string, v?: Record<string, unknown>) => dataKeyT(zh.t.bind(zh))(k, { ns: 'kit', ...v });
  const te = (k: string, v?: Record<string, unknown>) => dataKeyT(en.t.bind(en))(k, { ns: 'kit', ...v });
  it('joins the non-zero parts, largest first', () => {
    expect(formatDuration('2023-01-01 00:00:00', '2024-01-02 03:04:05', tz)).toBe('1年1天3小时4分钟5秒');
    expect(formatDuration('2023-01-01 00:00:00', '2024-01-02 03:04:05', te)).toBe('1y 1d 3h 4min 5s');
    expect(formatDuration('2023-01-01 10:00:00', '2023-01-01 10:00:30', tz)).toBe('30秒');
    expect(formatDuration('2023-01-01 10:00:00', '2023-01-01 12:00:00', tz)).toBe('2小时');
  });
  it('is leap-year aware and handles no difference', () => {
    expect(formatDuration('2024-02-28 00:00:00', '2024-03-01 00:00:00', tz)).toBe('2天');
    expect(formatDuration('2023-01-01 10:00:00', '2023-01-01 10:00:00', tz)).toBe('0秒');
    expect(formatDuration('0001-01-01 00:00:00', '2023-01-01 10:00:00', tz)).toBe('-');
  });
});
