import { z } from 'zod';
import { zHostKey } from '../credentials/index.ts';
import type { AccountType, Protocol } from '../../db/schema.ts';
import { isHost } from '../../../shared/host.ts';
import { hasForbiddenCharacter } from '../../lib/username.ts';
import { parsePattern } from '../../lib/pattern.ts';
import { MAX_PRIVATE_KEY, secretFields, zUsername } from '../credentials/index.ts';
import { PROTOCOLS } from '../../../shared/protocols.ts';

/*
 * What an asset is made of on the wire (contract §3.3, §3.4): its fields, the attributes each protocol keeps, and
 * the rules both the JSON routes and the CSV import apply.
 */

export const ACCOUNT_TYPES = ['custom', 'private-key', 'credential'] as const satisfies readonly AccountType[];

/** Lengths (characters) of the stored fields; the CSV import checks the same. */
export const LIMITS = { name: 128, ip: 253, username: 128, description: 2000, password: 1024, privateKey: MAX_PRIVATE_KEY, passphrase: 1024, tag: 64, tags: 32 } as const;

/** The attribute holding a secret: sealed at rest, never answered (`socksProxyPasswordSet` says whether it is set). */
export const SOCKS_PASSWORD = 'socks-proxy-password';
/** Kubernetes' TLS client private key: a secret like the SOCKS password (`clientKeySet`). */
export const CLIENT_KEY = 'client-key';
/** The attributes kept sealed (db/sealed.ts) and never answered, each with the flag `GET /assets/:id` shows instead. */
export const SECRET_ATTRIBUTES = { [SOCKS_PASSWORD]: 'socksProxyPasswordSet', [CLIENT_KEY]: 'clientKeySet' } as const;

const TERMINAL = ['font-name', 'font-size', 'color-scheme', 'backspace', 'terminal-type'] as const;

/** RDP's security modes an asset may ask for (FreeRDP's /sec: sessions/rdp/freerdp.ts SECURITY_MODES); '' = any. */
export const RDP_SECURITY = ['any', 'nla', 'nla-ext', 'tls'] as const;
/** RDP's switches beyond 1.3.9's attributes (its global properties, here per asset), "true"/"false". */
export const RDP_SWITCHES = [
  'console',
  'enable-wallpaper',
  'enable-theming',
  'enable-font-smoothing',
  'enable-full-window-drag',
  'enable-desktop-composition',
  'enable-menu-animations',
  'disable-bitmap-caching',
  'disable-offscreen-caching',
  'disable-glyph-caching',
] as const;
/** The RDP attributes the RDP relay reads beyond 1.3.9's list (contract §3.4 lists the rest). */
const RDP_EXTRA = ['security', 'load-balance-info', ...RDP_SWITCHES] as const;

/** The attribute names each protocol keeps (contract §3.4); anything else in a body is dropped, as 1.3.9. */
export const ATTRIBUTES: Readonly<Record<Protocol, readonly string[]>> = {
  ssh: [...TERMINAL, 'ssh-mode', 'socks-proxy-enable', 'socks-proxy-host', 'socks-proxy-port', 'socks-proxy-username', SOCKS_PASSWORD],
  rdp: ['domain', 'remote-app', 'remote-app-dir', 'remote-app-args', 'enable-drive', 'drive-path', 'color-depth', 'force-lossless', 'preconnection-id', 'preconnection-blob', ...RDP_EXTRA],
  vnc: ['color-depth', 'cursor', 'swap-red-blue', 'dest-host', 'dest-port'],
  telnet: [...TERMINAL, 'username-regex', 'password-regex', 'login-success-regex', 'login-failure-regex'],
  kubernetes: [...TERMINAL, 'namespace', 'pod', 'container', 'use-ssl', 'client-cert', CLIENT_KEY, 'ca-cert', 'ignore-cert'],
};

const MAX_ATTRIBUTE = 16 * 1024;

/** An attribute value as the 1.3.9 console sends it (string, number or boolean), stored as a string ('' and '-' = unset). */
const attrText = z
  .union([z.string().max(MAX_ATTRIBUTE, `at most ${MAX_ATTRIBUTE} characters`), z.number(), z.boolean(), z.null()], { message: 'expected a string, number or boolean' })
  .optional()
  .transform((v) => (v === null || v === undefined || v === '-' ? '' : String(v)));
const attrOneOf = (values: readonly string[]) =>
  attrText.refine((v) => v === '' || values.includes(v), { message: `expected one of: ${values.filter(Boolean).join(', ')}` });
const attrBool = attrOneOf(['true', 'false']);
const attrPort = attrText.refine((v) => v === '' || (/^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 65535), { message: 'expected a port 1–65535' });
const attrInt = attrText.refine((v) => v === '' || /^\d{1,9}$/.test(v), { message: 'expected a whole number' });
/**
 * RDP's security mode. Standard RDP security (`rdp`) is refused by name: it has no TLS certificate to pin, so the
 * bastion would never connect (sessions/rdp/desktop.ts).
 */
const attrRdpSecurity = attrText.superRefine((v, ctx) => {
  if (v === '' || (RDP_SECURITY as readonly string[]).includes(v)) return;
  ctx.addIssue({
    code: 'custom',
    message:
      v === 'rdp'
        ? `standard RDP security (rdp) has no certificate to check and is not offered; expected one of: ${RDP_SECURITY.join(', ')}`
        : `expected one of: ${RDP_SECURITY.join(', ')}`,
  });
});
/** A Telnet login pattern: a regular expression the Telnet relay can read (lib/pattern.ts; `(?i)` allowed in front). */
const attrPattern = attrText.refine((v) => v === '' || parsePattern(v) !== undefined, { message: 'expected a regular expression' });

/** Attributes whose values are checked beyond "a short string" (the console's choices, contract §3.4). */
const ATTRIBUTE_RULES: Readonly<Record<string, typeof attrText>> = {
  'font-size': attrInt,
  'color-scheme': attrOneOf(['gray-black', 'green-black', 'white-black', 'black-white']),
  backspace: attrOneOf(['127', '8']),
  'terminal-type': attrOneOf(['ansi', 'linux', 'vt100', 'vt220', 'xterm', 'xterm-256color']),
  'color-depth': attrOneOf(['8', '16', '24', '32']),
  cursor: attrOneOf(['local', 'remote']),
  'socks-proxy-enable': attrBool,
  'socks-proxy-port': attrPort,
  'dest-port': attrPort,
  'enable-drive': attrBool,
  'force-lossless': attrBool,
  'swap-red-blue': attrBool,
  'use-ssl': attrBool,
  'ignore-cert': attrBool,
  security: attrRdpSecurity,
  ...Object.fromEntries(RDP_SWITCHES.map((name) => [name, attrBool])),
  'username-regex': attrPattern,
  'password-regex': attrPattern,
  'login-success-regex': attrPattern,
  'login-failure-regex': attrPattern,
};

/** The zod schema of one protocol's attributes, read from the same flat body as the asset fields. */
export const attributesSchema = (protocol: Protocol) =>
  z.object(Object.fromEntries(ATTRIBUTES[protocol].map((name) => [name, ATTRIBUTE_RULES[name] ?? attrText])) as Record<string, typeof attrText>);

/**
 * Names (an asset's, a tag) refuse what a username refuses (lib/username.ts): control characters (C0, DEL, C1: NUL,
 * ESC…), zero-width/format characters, line separators. They show in lists, CSV files and logs, where a control
 * character can hide or rewrite text.
 */
export const NAME_CHARS_MSG = '不能包含控制字符、零宽或格式字符';

export type TagProblem = { kind: 'count' } | { kind: 'long'; tag: string } | { kind: 'separator'; tag: string } | { kind: 'characters'; tag: string };

/**
 * Tags from the wire (`a,b` in JSON, `a|b` in CSV): trimmed, '' and 1.3.9's '-' placeholder dropped, duplicates
 * dropped. A tag holds neither separator, so the export's `|` list reads back the same.
 */
export function parseTags(parts: readonly string[]): { tags: string[] } | { problem: TagProblem } {
  const tags = [...new Set(parts.map((t) => t.trim()).filter((t) => t !== '' && t !== '-'))];
  if (tags.length > LIMITS.tags) return { problem: { kind: 'count' } };
  const long = tags.find((t) => [...t].length > LIMITS.tag);
  if (long) return { problem: { kind: 'long', tag: long } };
  const bar = tags.find((t) => t.includes('|'));
  if (bar) return { problem: { kind: 'separator', tag: bar } };
  const odd = tags.find(hasForbiddenCharacter);
  if (odd) return { problem: { kind: 'characters', tag: odd } };
  return { tags };
}

/** A tag problem in the words of a 400 (`tags: …`). */
export function tagProblemText(p: TagProblem): string {
  if (p.kind === 'count') return `at most ${LIMITS.tags} tags`;
  if (p.kind === 'long') return `a tag has at most ${LIMITS.tag} characters: ${p.tag.slice(0, 20)}…`;
  if (p.kind === 'characters') return `标签${NAME_CHARS_MSG}`;
  return `a tag may not contain "|": ${p.tag}`;
}

/** A comma string of tags as a list, or a 400. */
export const zTagList = z
  .string()
  .max(LIMITS.tags * (LIMITS.tag + 1) * 2, 'too long')
  .transform((v, ctx) => {
    const parsed = parseTags(v.split(','));
    if ('problem' in parsed) {
      ctx.addIssue({ code: 'custom', message: tagProblemText(parsed.problem) });
      return z.NEVER;
    }
    return parsed.tags;
  });

/** Text that may be absent or null ('' then), trimmed (as the CSV import does); `-` is 1.3.9's "empty" placeholder. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `at most ${max} characters`)
    .nullish()
    .transform((v) => (v === null || v === undefined || v === '-' ? '' : v));
/** An id reference that may be unset ('', '-', null → null). */
const optionalRef = z
  .string()
  .max(64, 'at most 64 characters')
  .nullish()
  .transform((v) => (v === null || v === undefined || v.trim() === '' || v === '-' ? null : v.trim()));
/** An IP address or a host name (shared/host.ts: the console's forms check the same). */
export const HOST_MSG = 'expected a host name or an IP address';

const PORT_MSG = 'expected a port 1–65535';
/** A TCP port: a JSON number as 1.3.9, or digits (form posts, CSV). */
export const zPort = z
  .union([z.number(), z.string().trim().regex(/^\d{1,5}$/).transform(Number)], { message: PORT_MSG })
  .pipe(z.number().int(PORT_MSG).min(1, PORT_MSG).max(65535, PORT_MSG));

/**
 * The asset fields of `POST /assets` and `PUT /assets/:id` (the flat body also carries the protocol's attributes,
 * read by `attributesSchema`). Unknown keys (`id`, `created`, `owner`… sent back by the 1.3.9 console) are ignored.
 */
export const assetBody = z.looseObject({
  name: z
    .string()
    .trim()
    .min(1, 'required')
    .max(LIMITS.name, `at most ${LIMITS.name} characters`)
    .refine((v) => !hasForbiddenCharacter(v), `资产名称${NAME_CHARS_MSG}`),
  protocol: z.enum(PROTOCOLS, { message: `expected one of: ${PROTOCOLS.join(', ')}` }),
  ip: z.string().trim().min(1, 'required').max(LIMITS.ip, `at most ${LIMITS.ip} characters`).refine(isHost, HOST_MSG),
  port: zPort,
  accountType: z
    .enum(ACCOUNT_TYPES, { message: `expected one of: ${ACCOUNT_TYPES.join(', ')}` })
    .nullish()
    .transform((v) => v ?? 'custom'),
  // The account fields and their rules are the credentials' (credentials/account.ts): one definition of an SSH account.
  username: zUsername,
  ...secretFields,
  credentialId: optionalRef,
  accessGatewayId: optionalRef,
  tags: zTagList.nullish().transform((v) => v ?? []),
  description: optionalText(LIMITS.description),
  /** Create only: take the secrets not given here from this asset (needs `asset-copy`). */
  copyFrom: optionalRef,
  /** SSH only: the host key to pin (`SHA256:…`), '' to pin on the next login; absent keeps the pin (credentials/host-key.ts). */
  hostKey: zHostKey,
});
export type AssetBody = z.output<typeof assetBody>;
