import { describe, expect, it } from 'vitest';
import { createShadowTerminal } from '@/core';

describe('shadow terminal', () => {
  it('snapshots its screen so that another terminal of the same size gets the same state back', async () => {
    const a = await createShadowTerminal(40, 5);
    a.write('plain \x1b[1;31mbold red\x1b[0m\r\n');
    a.write('中文宽字符\r\n\x1b[44m blue \x1b[0m\x1b[3;10H');
    await a.flushed();
    const snap = a.snapshot();
    expect(snap).toContain('bold red');
    const b = await createShadowTerminal(40, 5);
    b.write(snap);
    await b.flushed();
    expect(b.snapshot()).toBe(snap);
    // The cursor came back too: writing at it lands in the same place on both.
    a.write('X');
    b.write('X');
    await Promise.all([a.flushed(), b.flushed()]);
    expect(b.snapshot()).toBe(a.snapshot());
    a.dispose();
    b.dispose();
  });

  it('resizes, and keeps no scrollback (a snapshot is the screen only)', async () => {
    const term = await createShadowTerminal(80, 3);
    term.resize(20, 2);
    expect([term.cols, term.rows]).toEqual([20, 2]);
    for (let i = 0; i < 10; i++) term.write(`line ${i}\r\n`);
    await term.flushed();
    const snap = term.snapshot();
    expect(snap).toContain('line 9');
    expect(snap).not.toContain('line 7');
    term.dispose();
  });
});
