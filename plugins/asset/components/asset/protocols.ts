import { ASSET_PROTOCOLS } from '@/domain';
import type { AccountType, Protocol } from './api';

/** In 1.3.9's order (its protocol radio); core's list, which the protocol badge reads too. */
export const PROTOCOLS: readonly Protocol[] = ASSET_PROTOCOLS;

/** The port a new asset of each protocol starts from. */
export const DEFAULT_PORT: Record<Protocol, number> = { ssh: 22, rdp: 3389, vnc: 5900, telnet: 23, kubernetes: 6443 };

/** Account types offered per protocol (Kubernetes has none: its access goes by certificates). */
export const ACCOUNT_TYPES: Record<Protocol, readonly AccountType[]> = {
  ssh: ['custom', 'private-key', 'credential'],
  rdp: ['custom', 'credential'],
  vnc: ['custom', 'credential'],
  telnet: ['custom', 'credential'],
  kubernetes: [],
};

/**
 * The attributes the asset form edits for each protocol (§3.3.1 of the screens reference), with their kind: sent as
 * 1.3.9's console sends them (switches as booleans, numbers as numbers, the rest as strings).
 */
type AttributeKind = 'string' | 'number' | 'boolean';
const TERMINAL = {
  'color-scheme': 'string',
  'font-name': 'string',
  'font-size': 'number',
  backspace: 'string',
  'terminal-type': 'string',
} as const satisfies Record<string, AttributeKind>;

export const ATTRIBUTES: Record<Protocol, Readonly<Record<string, AttributeKind>>> = {
  rdp: {
    'color-depth': 'string',
    'force-lossless': 'boolean',
    domain: 'string',
    'preconnection-id': 'string',
    'preconnection-blob': 'string',
    'remote-app': 'string',
    'remote-app-dir': 'string',
    'remote-app-args': 'string',
    'enable-drive': 'boolean',
    'drive-path': 'string',
  },
  ssh: {
    'socks-proxy-enable': 'boolean',
    'socks-proxy-host': 'string',
    'socks-proxy-port': 'number',
    'socks-proxy-username': 'string',
    'socks-proxy-password': 'string',
  },
  vnc: { 'color-depth': 'string', cursor: 'string', 'dest-host': 'string', 'dest-port': 'number' },
  telnet: {
    'username-regex': 'string',
    'password-regex': 'string',
    'login-success-regex': 'string',
    'login-failure-regex': 'string',
    ...TERMINAL,
  },
  kubernetes: {
    namespace: 'string',
    pod: 'string',
    container: 'string',
    'use-ssl': 'boolean',
    'client-cert': 'string',
    'client-key': 'string',
    'ca-cert': 'string',
    'ignore-cert': 'boolean',
    ...TERMINAL,
  },
};

export const COLOR_DEPTHS = ['16', '24', '32', '8'] as const;
export const CURSORS = ['local', 'remote'] as const;
export const COLOR_SCHEMES = ['gray-black', 'green-black', 'white-black', 'black-white'] as const;
export const BACKSPACES = ['127', '8'] as const;
export const TERMINAL_TYPES = ['ansi', 'linux', 'vt100', 'vt220', 'xterm', 'xterm-256color'] as const;

export function isProtocol(value: unknown): value is Protocol {
  return typeof value === 'string' && (PROTOCOLS as readonly string[]).includes(value);
}
