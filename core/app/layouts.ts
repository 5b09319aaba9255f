import type { ComponentType } from 'react';
import type { PageLayout } from '../plugin/types';

/** Layouts are lazy core chunks: the login screen (bare) must not pay for the menu and header. */
export const layoutLoaders: Record<Exclude<PageLayout, 'bare'>, () => Promise<ComponentType>> = {
  admin: () => import('../layouts/AdminLayout').then((m) => m.AdminLayout),
  user: () => import('../layouts/UserLayout').then((m) => m.UserLayout),
};
