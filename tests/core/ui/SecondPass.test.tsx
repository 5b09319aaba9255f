// core/ui/SecondPass: a region filled in a pass after the one it mounts in, so that the content around it commits
// (and paints) first. The layouts put their menu, header controls and footer in one, ServerTable its pager.
import { render, screen } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { SecondPass } from '../../../core/ui/SecondPass';

/** Records, when its commit lays it out, what else the document holds at that moment. */
function Probe({ name, log }: { name: string; log: string[] }) {
  useLayoutEffect(() => {
    log.push(`${name}: ${document.body.textContent ?? ''}`);
  }, [name, log]);
  return <span>{name}</span>;
}

describe('SecondPass', () => {
  it('commits the content and its fallback first, its children in a later commit', () => {
    const log: string[] = [];
    render(
      <div>
        <SecondPass fallback={<Probe name="[fallback]" log={log} />}>
          <Probe name="[menu]" log={log} />
        </SecondPass>
        <Probe name="[rows]" log={log} />
      </div>,
    );
    // The first commit: the rows and the fallback, no menu yet.
    expect(log[0]).toBe('[fallback]: [fallback][rows]');
    expect(log[1]).toBe('[rows]: [fallback][rows]');
    // Then the menu in place of the fallback.
    expect(log[2]).toBe('[menu]: [menu][rows]');
    expect(screen.getByText('[menu]')).toBeInTheDocument();
    expect(screen.queryByText('[fallback]')).toBeNull();
  });
});
