// Route paths as the console's hash router reads them, with no library: the entry's early start (core/app/early.ts)
// and index.html's inline boot (core/app/firstScreenBoot.ts) plan a first visit from the URL with these.

/** The router's pathname of a hash URL (`#/user?x=1` → `/user`). */
export function hashPathname(hash: string): string {
  const path = hash.replace(/^#/, '').split(/[?#]/)[0] ?? '';
  return path === '' ? '/' : path;
}

/** A route pattern (`/asset/:id`) matches a pathname: same segments, `:name` for any, letters' case ignored. */
export function matchesPath(pattern: string, pathname: string): boolean {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  return want.length === have.length && want.every((part, i) => part.startsWith(':') || part.toLowerCase() === have[i]?.toLowerCase());
}

/** A child route's full pattern: an absolute path as it is, a relative one under its page's. */
export function childPath(pagePath: string, child: string): string {
  return child.startsWith('/') ? child : `${pagePath.replace(/\/$/, '')}/${child}`;
}
