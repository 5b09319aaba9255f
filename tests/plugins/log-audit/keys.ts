import manifest from '../../../plugins/log-audit/manifest';

// Every key log-audit's manifest declares (the harness's default session holds them all too).
export const ALL_KEYS: string[] = [...manifest.menus, ...manifest.actions].map((k) => k.key);

export const admin = (menus: string[] = ALL_KEYS) => ({ user: { id: 'me', type: 'admin', menus } });
