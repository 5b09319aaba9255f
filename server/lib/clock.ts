/** Source of "now" in epoch milliseconds; tests inject a fake one to move time. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to (tests). */
export class ManualClock implements Clock {
  constructor(private ms = Date.UTC(2026, 0, 15, 4, 0, 0)) {}
  now(): number {
    return this.ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
