import type { PageDef } from '../plugin/types';

/**
 * A page whose first screen the server draws for a signed-in visit (GET /first-screen): one under a layout that
 * declares the GETs it opens with (`opensWith`), i.e. one with data to show. Detail pages (`/user/:id`) declare none:
 * their GETs would need the parameter filled in.
 */
export function serverDrawn(page: Pick<PageDef<string, string>, 'layout' | 'opensWith'>): boolean {
  return page.layout !== 'bare' && (page.opensWith?.length ?? 0) > 0;
}
