// The protocols an asset may speak: the one list the console and the server both use (asset forms and badges, the
// database's column type, the history filter, the overview counts). SSH first: it is the form's default, and the
// order in which lists, filters, charts and error messages name them.
export const PROTOCOLS = ['ssh', 'rdp', 'vnc', 'telnet', 'kubernetes'] as const;

export type Protocol = (typeof PROTOCOLS)[number];

export function isProtocol(value: unknown): value is Protocol {
  return typeof value === 'string' && (PROTOCOLS as readonly string[]).includes(value);
}
