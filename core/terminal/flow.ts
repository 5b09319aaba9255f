// Write-callback flow control for a terminal fed from a socket (terminal-limits §1): xterm parses on the page's main
// thread, slower than a relay can deliver, and discards data once 50 MB are pending. The writer counts what was
// handed to xterm but not yet parsed and asks the server to pause above a high mark, to resume below a low one.

/** Above this many pending characters the server is asked to pause. */
export const FLOW_HIGH_WATER = 1024 * 1024;
/** Below this many pending characters a paused server is asked to resume. */
export const FLOW_LOW_WATER = 256 * 1024;

/** What the writer needs of a terminal: xterm's `write` with its parsed callback. */
export interface WriteTarget {
  write(data: string, callback?: () => void): void;
}

export interface FlowControlOptions {
  /** Send the pause frame. */
  pause: () => void;
  /** Send the resume frame. */
  resume: () => void;
  highWater?: number;
  lowWater?: number;
}

export interface FlowControlledWriter {
  /** Hands data to the terminal, counting it until xterm has parsed it. */
  write(data: string): void;
  /** Characters written but not yet parsed. */
  readonly pending: number;
  /** True between a pause and the next resume. */
  readonly paused: boolean;
}

/** Wraps a terminal's `write` with pause/resume signalling. */
export function flowControlled(target: WriteTarget, { pause, resume, highWater = FLOW_HIGH_WATER, lowWater = FLOW_LOW_WATER }: FlowControlOptions): FlowControlledWriter {
  let pending = 0;
  let paused = false;
  return {
    write(data) {
      if (data === '') return;
      const size = data.length;
      pending += size;
      target.write(data, () => {
        pending -= size;
        if (paused && pending < lowWater) {
          paused = false;
          resume();
        }
      });
      if (!paused && pending > highWater) {
        paused = true;
        pause();
      }
    },
    get pending() {
      return pending;
    },
    get paused() {
      return paused;
    },
  };
}
