import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';

const QUERY_RETRIES = 3;
const QUERY_GC_TIME = 5 * 60 * 1000;

/** Exponential delay from 1 s, capped at 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

/** No retry for business errors, redirects and 4xx: only transport trouble is worth another go. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.isFinal) return false;
  return failureCount < QUERY_RETRIES;
}

export function createQueryClient(options: { retry?: boolean } = {}): QueryClient {
  const retry = options.retry === false ? false : shouldRetry;
  return new QueryClient({
    defaultOptions: {
      queries: { retry, retryDelay, gcTime: QUERY_GC_TIME, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
