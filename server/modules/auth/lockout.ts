import type { Clock } from '../../lib/clock.ts';

export const MAX_FAILURES = 5;
export const LOCK_MS = 5 * 60 * 1000;

/**
 * Failed-login counter per client IP + username, in memory. Five failures lock the pair for five minutes
 * after the last one (1.3.9 counted from 1 and locked after four: quirk 18).
 */
export class Lockout {
  private readonly entries = new Map<string, { count: number; until: number }>();

  constructor(private readonly clock: Clock) {}

  private live(key: string) {
    const e = this.entries.get(key);
    if (e && e.until <= this.clock.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  isLocked(key: string): boolean {
    return (this.live(key)?.count ?? 0) >= MAX_FAILURES;
  }

  /** Records a failure; returns the failure count so far. */
  fail(key: string): number {
    const count = (this.live(key)?.count ?? 0) + 1;
    this.entries.set(key, { count, until: this.clock.now() + LOCK_MS });
    if (this.entries.size > 10_000) this.prune();
    return count;
  }

  reset(key: string): void {
    this.entries.delete(key);
  }

  private prune() {
    const now = this.clock.now();
    for (const [k, e] of this.entries) if (e.until <= now) this.entries.delete(k);
    // Still huge (a spray of usernames): forget the oldest, insertion order first, to bound memory.
    for (const k of this.entries.keys()) {
      if (this.entries.size <= 10_000) break;
      this.entries.delete(k);
    }
  }
}
