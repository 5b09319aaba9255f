import { ApiError } from '@/core';
import { createQueryClient, retryDelay, shouldRetry } from '@/core/testing';
import { describe, expect, it } from 'vitest';

describe('query client defaults', () => {
  it('retries 3 times with exponential delay from 1 s capped at 30 s, keeps cache 5 min', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(shouldRetry(0, new Error('boom'))).toBe(true);
    expect(shouldRetry(2, new Error('boom'))).toBe(true);
    expect(shouldRetry(3, new Error('boom'))).toBe(false);
    const defaults = createQueryClient().getDefaultOptions().queries;
    expect(defaults?.gcTime).toBe(300_000);
    expect(defaults?.retry).toBe(shouldRetry);
  });

  it('does not retry business errors nor 4xx, but retries network and 5xx', () => {
    expect(shouldRetry(0, new ApiError('business', 'x', -1, 200, true))).toBe(false);
    expect(shouldRetry(0, new ApiError('http', 'x', null, 404, true))).toBe(false);
    expect(shouldRetry(0, new ApiError('unauthorized', 'x', 401, 200, true))).toBe(false);
    expect(shouldRetry(0, new ApiError('http', 'x', null, 502, true))).toBe(true);
    expect(shouldRetry(0, new ApiError('network', 'x', null, null, true))).toBe(true);
  });
});
