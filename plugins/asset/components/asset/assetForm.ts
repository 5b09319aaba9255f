import { splitTags } from '@/core';
import type { AccountType, AssetBody, AssetRecord, Protocol } from './api';
import { ATTRIBUTES, isProtocol } from './protocols';

/**
 * The asset form's values: the asset's fields, every protocol attribute the form edits (the shown protocol's are
 * sent), and the record's `…Set` flags, which say which secrets are stored (they are never sent back).
 */
export const EMPTY_ASSET = {
  name: '',
  // A newcomer's first asset is most likely an SSH host.
  protocol: 'ssh' as Protocol,
  ip: '',
  port: 22 as number | undefined,
  accountType: 'custom' as AccountType | '',
  credentialId: '',
  username: '',
  password: '',
  privateKey: '',
  passphrase: '',
  accessGatewayId: '',
  /** SSH: the pinned host key's fingerprint (`SHA256:…`), '' = recorded at the next login. */
  hostKey: '',
  tags: [] as string[],
  description: '',
  // kubernetes
  namespace: '',
  pod: '',
  container: '',
  'use-ssl': false,
  'client-cert': '',
  'client-key': '',
  'ca-cert': '',
  'ignore-cert': false,
  // rdp
  'color-depth': '',
  'force-lossless': false,
  domain: '',
  'preconnection-id': '',
  'preconnection-blob': '',
  'remote-app': '',
  'remote-app-dir': '',
  'remote-app-args': '',
  'enable-drive': false,
  'drive-path': '',
  // ssh
  'socks-proxy-enable': false,
  'socks-proxy-host': '',
  'socks-proxy-port': undefined as number | undefined,
  'socks-proxy-username': '',
  'socks-proxy-password': '',
  // vnc
  cursor: '',
  'dest-host': '',
  'dest-port': undefined as number | undefined,
  // telnet (and the terminal settings of kubernetes)
  'username-regex': '',
  'password-regex': '',
  'login-success-regex': '',
  'login-failure-regex': '',
  'color-scheme': '',
  'font-name': '',
  'font-size': undefined as number | undefined,
  backspace: '',
  'terminal-type': '',
  // which secrets the server holds (GET /assets/:id)
  passwordSet: false,
  privateKeySet: false,
  passphraseSet: false,
  socksProxyPasswordSet: false,
  clientKeySet: false,
  // where the stored password and SOCKS password were entered for (`destinationOf`, `proxyOf` of the loaded record)
  savedDestination: '',
  savedProxy: '',
  // the host key as loaded: only a changed one is sent (a trust, which the server may refuse)
  savedHostKey: '',
};

export type AssetValues = typeof EMPTY_ASSET;

/** The proxy the asset's connection goes through, '' for none. */
export const proxyOf = (v: AssetValues): string => (v.protocol === 'ssh' && v['socks-proxy-enable'] ? `${v['socks-proxy-host'].trim()}:${v['socks-proxy-port'] ?? ''}` : '');

/** Where the asset's password goes: host, port, protocol and the hops on the way. */
export const destinationOf = (v: AssetValues): string => JSON.stringify([v.protocol, v.ip.trim(), v.port ?? null, v.accessGatewayId, proxyOf(v)]);

/**
 * The server keeps a stored password only while the asset still goes where it was entered for (a hop added, changed
 * or dropped counts: the same address seen from the bastion is another host): once the form sends it elsewhere, the
 * password must be typed again (the owner and the super admin excepted: the form asks anyway).
 */
export function passwordMoved(v: AssetValues): boolean {
  if (v.savedDestination === '') return false;
  const [protocol, ip, port, gateway, proxy] = JSON.parse(v.savedDestination) as [string, string, number | null, string, string];
  const proxyNow = proxyOf(v);
  return protocol !== v.protocol || ip !== v.ip.trim() || port !== (v.port ?? null) || v.accessGatewayId !== gateway || proxyNow !== proxy;
}

/** Likewise the SOCKS password and its proxy. */
export const socksPasswordMoved = (v: AssetValues): boolean => v.savedProxy !== '' && proxyOf(v) !== '' && proxyOf(v) !== v.savedProxy;

const SECRETS = ['password', 'privateKey', 'passphrase'] as const;

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  const s = String(value);
  return s === '-' ? '' : s; // 1.3.9's "empty" placeholder
}

function numberOrNone(value: unknown): number | undefined {
  const s = text(value).trim();
  if (s === '') return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

function flag(value: unknown): boolean {
  return value === true || value === 'true';
}

/** The form's values from `GET /assets/:id` (attributes arrive as strings: `'true'`, `'1080'`, `'-'` for none). */
export function toValues(record: AssetRecord): AssetValues {
  const out: Record<string, unknown> = { ...EMPTY_ASSET };
  for (const [key, initial] of Object.entries(EMPTY_ASSET)) {
    const value = record[key];
    if (value === undefined || value === null) continue;
    if (typeof initial === 'boolean') out[key] = flag(value);
    else if (key === 'tags') out[key] = splitTags(text(value));
    else if (key === 'port' || initial === undefined) out[key] = numberOrNone(value);
    else out[key] = text(value);
  }
  if (!isProtocol(out.protocol)) out.protocol = EMPTY_ASSET.protocol;
  const values = out as AssetValues;
  return { ...values, savedDestination: destinationOf(values), savedProxy: proxyOf(values), savedHostKey: values.hostKey };
}

/**
 * The body of POST/PUT `/assets` from the submitted values (hidden fields and kept secrets already left out by the
 * form): the asset's fields and the attributes of its protocol, flat, as 1.3.9's console sends them. A secret left
 * empty is not sent (the server keeps the stored one, or, for a copy, takes the source's).
 */
export function toBody(values: Partial<AssetValues>): AssetBody {
  const protocol = values.protocol ?? EMPTY_ASSET.protocol;
  const body: AssetBody = {
    name: (values.name ?? '').trim(),
    protocol,
    ip: (values.ip ?? '').trim(),
    port: values.port ?? 0,
    // Kubernetes offers no account type; `custom` with no account is what the server stores for it.
    accountType: protocol === 'kubernetes' ? 'custom' : values.accountType || 'custom',
    accessGatewayId: values.accessGatewayId ?? '',
    tags: (values.tags ?? []).join(','),
    description: values.description ?? '',
  };
  if (values.credentialId !== undefined) body.credentialId = values.credentialId;
  if (values.username !== undefined) body.username = values.username;
  for (const secret of SECRETS) {
    const value = values[secret];
    if (value) body[secret] = value;
  }
  const all = values as Record<string, unknown>;
  for (const [name, kind] of Object.entries(ATTRIBUTES[protocol])) {
    if (!(name in all)) continue; // hidden (e.g. the proxy fields with the proxy off)
    const value = all[name];
    if (kind === 'boolean') body[name] = value === true;
    else if (kind === 'number') {
      if (typeof value === 'number' && Number.isFinite(value)) body[name] = value;
    } else if (typeof value === 'string' && value.trim() !== '') body[name] = value; // as typed: a prompt regex may end in a space
  }
  if (protocol === 'ssh') {
    body['ssh-mode'] = 'native'; // the only mode 1.3.9's console offers
    // Only a changed pin is sent (a trust); '' asks the server to record the key at the next login.
    const hostKey = (values.hostKey ?? '').trim();
    if (hostKey !== (values.savedHostKey ?? '')) body.hostKey = hostKey;
  }
  return body;
}
