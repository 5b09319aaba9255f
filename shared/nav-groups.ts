/** Menu groups are owned by core; plugins pick one, they never invent one. Order here is menu order. */
export const NAV_GROUPS = [
  { key: 'dashboard', top: true },
  { key: 'resource', top: false },
  { key: 'session-audit', top: false },
  { key: 'log-audit', top: false },
  { key: 'ops', top: false },
  { key: 'security', top: false },
  { key: 'identity', top: false },
  { key: 'authorised', top: false },
  { key: 'setting', top: true },
  { key: 'info', top: true },
] as const;

export type NavGroupKey = (typeof NAV_GROUPS)[number]['key'];

const NAV_GROUP_KEYS: readonly string[] = NAV_GROUPS.map((g) => g.key);

export function isNavGroupKey(value: string): value is NavGroupKey {
  return NAV_GROUP_KEYS.includes(value);
}
