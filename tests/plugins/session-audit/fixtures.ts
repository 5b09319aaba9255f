import type { SessionRow } from '../../../plugins/session-audit/components/api';

export const session = (over: Partial<SessionRow> & { id: string }): SessionRow => ({
  protocol: 'ssh',
  ip: '10.0.0.5',
  port: 22,
  username: 'root',
  assetId: 'a1',
  assetName: 'web-01',
  creator: 'u1',
  creatorName: 'Ann',
  clientIp: '192.168.1.10',
  width: 120,
  height: 40,
  status: 'connected',
  recording: '1',
  connectedTime: '2026-11-23 10:00:00',
  disconnectedTime: '0001-01-01 00:00:00',
  code: 0,
  message: '',
  mode: 'native',
  reviewed: false,
  commandCount: 0,
  ...over,
});

export const users = [
  { id: 'u1', username: 'ann', nickname: 'Ann' },
  { id: 'u2', username: 'bob', nickname: 'Bob' },
];
export const assets = [
  { id: 'a1', name: 'web-01' },
  { id: 'a2', name: 'db-01' },
];
export const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };
