import { describe, expect, it } from 'vitest';
import { FLOW_HIGH_WATER, FLOW_LOW_WATER, flowControlled } from '@/core';

/** A terminal whose parser runs when the test says so. */
function slowTerminal() {
  const queue: { size: number; done?: () => void }[] = [];
  return {
    write: (data: string, done?: () => void) => void queue.push({ size: data.length, done }),
    /** Parses the oldest `n` writes. */
    parse: (n = 1) => {
      for (const item of queue.splice(0, n)) item.done?.();
    },
    queue,
  };
}

describe('write-callback flow control', () => {
  it('pauses once above the high mark and resumes once below the low mark, once each', () => {
    const term = slowTerminal();
    const frames: string[] = [];
    const writer = flowControlled(term, { pause: () => frames.push('5'), resume: () => frames.push('6') });
    const chunk = 'x'.repeat(256 * 1024);
    for (let i = 0; i < 4; i += 1) writer.write(chunk);
    expect(writer.pending).toBe(FLOW_HIGH_WATER);
    expect(frames).toEqual([]); // at the mark, not above
    writer.write('y');
    expect(frames).toEqual(['5']);
    writer.write(chunk); // still paused: no second 5
    expect(frames).toEqual(['5']);
    expect(writer.paused).toBe(true);
    term.parse(5); // 256 KiB pending: not below the low mark yet
    expect(writer.pending).toBe(FLOW_LOW_WATER);
    expect(frames).toEqual(['5']);
    term.parse(1);
    expect(writer.pending).toBe(0);
    expect(frames).toEqual(['5', '6']);
    expect(writer.paused).toBe(false);
  });

  it('never pauses while xterm keeps up, and ignores empty output', () => {
    const term = slowTerminal();
    const frames: string[] = [];
    const writer = flowControlled(term, { pause: () => frames.push('5'), resume: () => frames.push('6') });
    writer.write('');
    expect(term.queue).toHaveLength(0);
    for (let i = 0; i < 100; i += 1) {
      writer.write('x'.repeat(64 * 1024));
      term.parse();
    }
    expect(frames).toEqual([]);
  });
});
