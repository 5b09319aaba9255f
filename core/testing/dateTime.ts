import { fireEvent, within } from '@testing-library/react';

/** What `screen` and `within(…)` offer that the helper needs. */
interface Scope {
  getByRole: (role: 'group', options: { name: string }) => HTMLElement;
}

/**
 * Types a moment into the kit's date-time field named `label` (its date box and its time box), as a user would type
 * it: `wire` is `YYYY-MM-DD HH:mm:ss`, or '' to clear both boxes. Other text goes into the date box as is.
 */
export function typeDateTime(scope: Scope, label: string, wire: string): void {
  const [date, time] = within(scope.getByRole('group', { name: label })).getAllByRole('textbox');
  if (!date || !time) throw new Error(`the date-time field ${label} has no date and time boxes`);
  const [datePart = '', timePart = ''] = wire.split(' ');
  fireEvent.change(date, { target: { value: datePart } });
  fireEvent.change(time, { target: { value: timePart } });
}
