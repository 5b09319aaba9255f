/** A scheduled callback; `unref` keeps it from holding the process open. */
export interface TimerHandle {
  unref(): unknown;
}

/**
 * The timer functions background jobs schedule with (host sampling, log retention). Injected so that tests fire a
 * job by hand, at a moment they choose with the manual clock, instead of waiting real time.
 */
export interface Timers {
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

