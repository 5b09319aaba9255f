import type { PrincipalUser } from '../../http/access.ts';
import type { Lng } from '../../lib/i18n.ts';
import { shownNickname, type UserAccess } from '../../permissions/effective.ts';

/** AccountInfo of contract §3.1, with roles loaded (login answered null in 1.3.9). */
export interface AccountInfo {
  id: string;
  username: string;
  nickname: string;
  type: string;
  enableTotp: boolean;
  roles: string[];
  menus: string[];
}

/** The account as its owner reads it, in `lng` (the super admin's seeded nickname is said in it). */
export const accountInfo = (user: PrincipalUser, access: UserAccess, lng: Lng): AccountInfo => ({
  id: user.id,
  username: user.username,
  nickname: shownNickname(user.id, user.nickname, lng),
  type: user.type,
  enableTotp: user.totpEnabled,
  roles: access.roles,
  menus: access.menus,
});
