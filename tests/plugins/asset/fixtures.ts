import manifest from '../../../plugins/asset/manifest';

// Every key the asset manifest declares (the harness's default session holds them all too).
export const ALL_KEYS: string[] = [...manifest.menus, ...manifest.actions].map((k) => k.key);

export const asAdmin = (menus: string[] = ALL_KEYS) => ({ user: { id: 'me', type: 'admin', nickname: 'Me', menus } });

export const web = {
  id: 'a1',
  name: 'web-01',
  description: '前端服务器',
  ip: '10.0.0.1',
  protocol: 'ssh',
  port: 22,
  active: true,
  activeMessage: '',
  created: '2026-11-01 10:00:00',
  lastAccessTime: '0001-01-01 00:00:00',
  tags: 'prod,web',
  owner: 'u1',
  ownerName: 'Ann',
};

export const desk = {
  ...web,
  id: 'a2',
  name: 'desk-01',
  description: '-',
  ip: '10.0.0.2',
  protocol: 'rdp',
  port: 3389,
  active: false,
  activeMessage: 'dial tcp 10.0.0.2:3389: i/o timeout',
  lastAccessTime: '2026-11-02 09:30:00',
  tags: '-',
  owner: 'u2',
  ownerName: 'Bob',
};

export const page = (items: object[] = [web, desk], total = items.length) => ({ total, items });

/** What every asset screen may ask for besides its own calls. */
export const LISTS = {
  'GET /tags': ['prod', 'web', '-', 'db'],
  'GET /credentials': [{ id: 'c1', name: '运维凭证' }],
  'GET /access-gateways': [{ id: 'g1', name: '跳板机' }],
  'GET /users': [
    { id: 'u1', username: 'ann', nickname: 'Ann' },
    { id: 'u2', username: 'bob', nickname: 'Bob' },
  ],
};

export const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };
