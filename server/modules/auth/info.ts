import type { PrincipalUser } from '../../http/auth.ts';
import type { UserAccess } from '../menus/effective.ts';

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

export const accountInfo = (user: PrincipalUser, access: UserAccess): AccountInfo => ({
  id: user.id,
  username: user.username,
  nickname: user.nickname,
  type: user.type,
  enableTotp: user.totpEnabled,
  roles: access.roles,
  menus: access.menus,
});
