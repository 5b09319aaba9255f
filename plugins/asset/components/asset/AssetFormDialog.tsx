import { type FieldOption, FormDialog, type FormItem, isHost, useEndpoints, useQueryClient, useSession, useTranslation, z } from '@/core';
import { ASSET_KEYS, assetApi, type Protocol } from './api';
import { type AssetValues, EMPTY_ASSET, passwordMoved, socksPasswordMoved, toBody, toValues } from './assetForm';
import {
  ACCOUNT_TYPES,
  BACKSPACES,
  COLOR_DEPTHS,
  COLOR_SCHEMES,
  CURSORS,
  DEFAULT_PORT,
  isProtocol,
  PROTOCOLS,
  TERMINAL_TYPES,
} from './protocols';

/** An OpenSSH SHA-256 fingerprint, or nothing (recorded at the next login). */
const HOST_KEY = /^$|^SHA256:[A-Za-z0-9+/]{43}=?$/;

/** Which asset the form is open on: a new one, an edit, or a copy saved as a new asset. */
export type AssetFormMode = { kind: 'closed' } | { kind: 'new' } | { kind: 'edit'; id: string } | { kind: 'copy'; id: string };

type T = ReturnType<typeof useTranslation<'asset'>>['t'];
type Item = FormItem<AssetValues>;

const is =
  (...protocols: Protocol[]) =>
  (v: AssetValues) =>
    protocols.includes(v.protocol);
const ACCOUNTED: Protocol[] = ['ssh', 'rdp', 'vnc', 'telnet'];
const PORT = { type: 'number', min: 1, max: 65535, rule: z.int() } as const;

/** The basic fields: what the asset is, where it is, how to sign in. */
function basicFields(t: T, api: ReturnType<typeof assetApi>): Item[] {
  const accountTypeOptions = (protocol: Protocol): FieldOption[] =>
    ACCOUNT_TYPES[protocol].map((type) => ({ value: type, label: t(`asset.accountTypes.${type}`) }));
  const accountType = (protocol: Protocol): Item => ({
    name: 'accountType',
    label: t('asset.fields.accountType'),
    type: 'select',
    required: true,
    requiredMessage: t('asset.validation.accountType'),
    options: accountTypeOptions(protocol),
    visible: (v) => (protocol === 'ssh' ? v.protocol === 'ssh' : v.protocol !== 'ssh' && v.protocol !== 'kubernetes'),
  });
  const withAccount = (v: AssetValues) => ACCOUNTED.includes(v.protocol);
  return [
    // The protocol comes first: it decides the port and which of the sections below apply.
    {
      name: 'protocol',
      label: t('asset.fields.protocol'),
      type: 'radio',
      required: true,
      requiredMessage: t('asset.validation.protocol'),
      options: PROTOCOLS.map((p) => ({ value: p, label: t(`asset.protocols.${p}`) })),
      // 1.3.9: a protocol brings its default port — unless the user typed a port of their own, which stays — and (but
      // for Kubernetes) starts again from a password account.
      linked: (value, before) => {
        if (!isProtocol(value) || value === before.protocol) return undefined;
        const typed = before.port !== undefined && before.port !== DEFAULT_PORT[before.protocol];
        const port = typed ? {} : { port: DEFAULT_PORT[value] };
        return value === 'kubernetes' ? port : { ...port, accountType: 'custom' };
      },
    },
    { name: 'name', label: t('asset.fields.assetName'), required: true, requiredMessage: t('asset.validation.name'), maxLength: 128, placeholder: t('asset.placeholders.name') },
    { name: 'ip', label: t('asset.fields.host'), required: true, requiredMessage: t('asset.validation.host'), maxLength: 253, validate: (v) => (isHost(String(v).trim()) ? undefined : t('asset.validation.hostInvalid')), placeholder: t('asset.placeholders.host'), hint: t('asset.hints.secretStays') },
    { name: 'port', label: t('asset.fields.port'), ...PORT, required: true, requiredMessage: t('asset.validation.port'), placeholder: t('asset.placeholders.port') },
    {
      section: '',
      visible: is('kubernetes'),
      fields: [
        { name: 'namespace', label: t('asset.fields.namespace'), placeholder: t('asset.placeholders.namespace') },
        { name: 'pod', label: t('asset.fields.pod'), required: true, requiredMessage: t('asset.validation.pod'), placeholder: t('asset.placeholders.pod') },
        { name: 'container', label: t('asset.fields.container'), placeholder: t('asset.placeholders.container') },
      ],
    },
    accountType('ssh'),
    accountType('rdp'),
    {
      name: 'credentialId',
      label: t('asset.fields.credential'),
      type: 'select',
      required: true,
      requiredMessage: t('asset.validation.credential'),
      remoteOptions: { queryKey: ASSET_KEYS.credentials, load: api.credentials },
      visible: (v) => withAccount(v) && v.accountType === 'credential',
    },
    {
      name: 'username',
      label: t('asset.fields.username'),
      placeholder: t('asset.placeholders.username'),
      maxLength: 128,
      autoComplete: 'off',
      visible: (v) => withAccount(v) && (v.accountType === 'custom' || v.accountType === 'private-key'),
    },
    {
      name: 'password',
      label: t('asset.fields.password'),
      type: 'password',
      placeholder: t('asset.placeholders.password'),
      maxLength: 1024,
      autoComplete: 'new-password',
      // Sent elsewhere, a stored password must be typed again (the server keeps it only for its old address).
      isSet: (v) => v.passwordSet && !passwordMoved(v),
      required: (v) => v.passwordSet && passwordMoved(v),
      requiredMessage: t('asset.validation.passwordAgain'),
      visible: (v) => withAccount(v) && v.accountType === 'custom',
    },
    {
      name: 'privateKey',
      label: t('asset.fields.privateKey'),
      type: 'textarea',
      required: true,
      requiredMessage: t('asset.validation.privateKey'),
      isSet: (v) => v.privateKeySet,
      visible: (v) => v.protocol === 'ssh' && v.accountType === 'private-key',
    },
    {
      name: 'passphrase',
      label: t('asset.fields.passphrase'),
      type: 'password',
      maxLength: 1024,
      autoComplete: 'new-password',
      isSet: (v) => v.passphraseSet,
      visible: (v) => v.protocol === 'ssh' && v.accountType === 'private-key',
    },
    {
      name: 'hostKey',
      label: t('asset.fields.hostKey'),
      placeholder: 'SHA256:…',
      maxLength: 100,
      monospace: true,
      autoComplete: 'off',
      hint: t('asset.hints.hostKey'),
      validate: (v) => (HOST_KEY.test(String(v).trim()) ? undefined : t('asset.validation.hostKey')),
      visible: (v) => v.protocol === 'ssh',
    },
    {
      name: 'accessGatewayId',
      label: t('asset.fields.gateway'),
      type: 'select',
      placeholder: t('asset.placeholders.gateway'),
      hint: t('asset.hints.gateway'),
      remoteOptions: { queryKey: ASSET_KEYS.gateways, load: api.gateways },
    },
    { name: 'tags', label: t('asset.fields.tags'), type: 'tags', placeholder: t('asset.placeholders.tags'), remoteOptions: { queryKey: ASSET_KEYS.tags, load: api.tags } },
    { name: 'description', label: t('asset.fields.description'), type: 'textarea', maxLength: 2000, placeholder: t('asset.placeholders.description') },
  ];
}

/** The advanced settings of each protocol, in 1.3.9's panels (§3.3.1 of the screens reference). */
function advancedFields(t: T): Item[] {
  const attr = (name: keyof AssetValues & string) => t(`asset.attrs.${name}` as 'asset.attrs.domain');
  const choices = (values: readonly string[], label: (v: string) => string): FieldOption[] => values.map((value) => ({ value, label: label(value) }));
  const byDefault = t('asset.options.default');
  const colorDepth: Item = {
    name: 'color-depth',
    label: attr('color-depth'),
    type: 'select',
    placeholder: byDefault,
    options: choices(COLOR_DEPTHS, (d) => t(`asset.options.colorDepth.${d}` as 'asset.options.colorDepth.16')),
  };
  const terminal: Item[] = [
    {
      section: t('asset.sections.display'),
      visible: is('telnet', 'kubernetes'),
      fields: [
        {
          name: 'color-scheme',
          label: attr('color-scheme'),
          type: 'select',
          placeholder: byDefault,
          options: choices(COLOR_SCHEMES, (s) => t(`asset.options.colorScheme.${s}` as 'asset.options.colorScheme.gray-black')),
        },
        { name: 'font-name', label: attr('font-name'), placeholder: t('asset.attrHints.font-name') },
        { name: 'font-size', label: attr('font-size'), type: 'number', min: 8, max: 96, placeholder: t('asset.attrHints.font-size') },
      ],
    },
    {
      section: t('asset.sections.terminal'),
      visible: is('telnet', 'kubernetes'),
      fields: [
        {
          name: 'backspace',
          label: attr('backspace'),
          type: 'select',
          placeholder: byDefault,
          options: choices(BACKSPACES, (b) => t(`asset.options.backspace.${b}` as 'asset.options.backspace.8')),
        },
        { name: 'terminal-type', label: attr('terminal-type'), type: 'select', placeholder: byDefault, options: choices(TERMINAL_TYPES, (v) => v) },
      ],
    },
  ];
  return [
    // RDP
    { section: t('asset.sections.display'), visible: is('rdp'), fields: [colorDepth, { name: 'force-lossless', label: attr('force-lossless'), type: 'switch' }] },
    { section: t('asset.sections.auth'), visible: is('rdp'), fields: [{ name: 'domain', label: attr('domain'), placeholder: t('asset.attrHints.domain') }] },
    {
      section: t('asset.sections.pdu'),
      visible: is('rdp'),
      fields: [
        {
          name: 'preconnection-id',
          label: attr('preconnection-id'),
          placeholder: t('asset.attrHints.preconnection-id'),
          pattern: /^\d+$/,
          patternMessage: t('asset.attrHints.preconnection-id-invalid'),
        },
        { name: 'preconnection-blob', label: attr('preconnection-blob'), placeholder: t('asset.attrHints.preconnection-blob') },
      ],
    },
    {
      section: t('asset.sections.remoteApp'),
      visible: is('rdp'),
      fields: [
        { name: 'remote-app', label: attr('remote-app'), hint: t('asset.attrHints.remote-app') },
        { name: 'remote-app-dir', label: attr('remote-app-dir'), hint: t('asset.attrHints.remote-app-ignored') },
        { name: 'remote-app-args', label: attr('remote-app-args'), hint: t('asset.attrHints.remote-app-ignored') },
      ],
    },
    {
      section: t('asset.sections.drive'),
      visible: is('rdp'),
      fields: [
        // The choice of a shared storage (drive-path, GET /storages/shares) joins when the storages module exists;
        // until then an enabled drive is the operator's own default space, which is what an empty drive-path means.
        { name: 'enable-drive', label: attr('enable-drive'), type: 'switch', hint: t('asset.attrHints.drive-default') },
      ],
    },
    // SSH
    {
      section: t('asset.sections.socks'),
      visible: is('ssh'),
      fields: [
        { name: 'socks-proxy-enable', label: attr('socks-proxy-enable'), type: 'switch' },
        {
          name: 'socks-proxy-host',
          label: attr('socks-proxy-host'),
          required: true,
          requiredMessage: t('asset.validation.socksHost'),
          placeholder: t('asset.attrHints.socks-proxy-host'),
          visible: (v) => v['socks-proxy-enable'],
        },
        {
          name: 'socks-proxy-port',
          label: attr('socks-proxy-port'),
          ...PORT,
          required: true,
          requiredMessage: t('asset.validation.socksPort'),
          visible: (v) => v['socks-proxy-enable'],
        },
        {
          name: 'socks-proxy-username',
          label: attr('socks-proxy-username'),
          placeholder: t('asset.attrHints.socks-proxy-username'),
          autoComplete: 'off',
          visible: (v) => v['socks-proxy-enable'],
        },
        {
          name: 'socks-proxy-password',
          label: attr('socks-proxy-password'),
          type: 'password',
          autoComplete: 'new-password',
          isSet: (v) => v.socksProxyPasswordSet && !socksPasswordMoved(v),
          required: (v) => v.socksProxyPasswordSet && socksPasswordMoved(v),
          requiredMessage: t('asset.validation.socksPasswordAgain'),
          visible: (v) => v['socks-proxy-enable'],
        },
      ],
    },
    // VNC
    {
      section: t('asset.sections.display'),
      visible: is('vnc'),
      fields: [
        colorDepth,
        {
          name: 'cursor',
          label: attr('cursor'),
          type: 'select',
          placeholder: byDefault,
          options: choices(CURSORS, (c) => t(`asset.options.cursor.${c}` as 'asset.options.cursor.local')),
        },
      ],
    },
    {
      section: t('asset.sections.vncRepeater'),
      visible: is('vnc'),
      fields: [
        { name: 'dest-host', label: attr('dest-host'), hint: t('asset.attrHints.dest') },
        { name: 'dest-port', label: attr('dest-port'), ...PORT, hint: t('asset.attrHints.dest') },
      ],
    },
    // Telnet
    {
      section: t('asset.sections.auth'),
      visible: is('telnet'),
      fields: [
        { name: 'username-regex', label: attr('username-regex') },
        { name: 'password-regex', label: attr('password-regex') },
        { name: 'login-success-regex', label: attr('login-success-regex') },
        { name: 'login-failure-regex', label: attr('login-failure-regex') },
      ],
    },
    // Kubernetes
    {
      section: t('asset.sections.auth'),
      visible: is('kubernetes'),
      fields: [
        { name: 'use-ssl', label: attr('use-ssl'), type: 'switch' },
        { name: 'client-cert', label: attr('client-cert'), type: 'textarea', visible: (v) => v['use-ssl'] },
        { name: 'client-key', label: attr('client-key'), type: 'textarea', isSet: (v) => v.clientKeySet, visible: (v) => v['use-ssl'] },
        { name: 'ca-cert', label: attr('ca-cert'), type: 'textarea', visible: (v) => v['use-ssl'] },
        { name: 'ignore-cert', label: attr('ignore-cert'), type: 'switch' },
      ],
    },
    // Telnet and Kubernetes terminals
    ...terminal,
  ];
}

export interface AssetFormDialogProps {
  mode: AssetFormMode;
  onClose: () => void;
  /** After a save (toast and reload). */
  onSaved: () => Promise<void>;
}

/** 新建资产 / 更新资产 / 复制资产: the fields follow the protocol and the account type; secrets are never filled in. */
export function AssetFormDialog({ mode, onClose, onSaved }: AssetFormDialogProps) {
  const { t } = useTranslation('asset');
  const assets = useEndpoints(assetApi);
  const client = useQueryClient();
  const source = mode.kind === 'edit' || mode.kind === 'copy' ? mode.id : undefined;
  const me = useSession((s) => s.user?.id);
  // A copy takes the source's secrets only for its owner, the super admin or an unrestricted opener (issue 28): for
  // anyone but the owner the form shows them unset and asks for them (left empty, the server decides).
  const loadValues = (record: Awaited<ReturnType<typeof assets.get>>) => {
    const values = toValues(record);
    if (mode.kind !== 'copy' || record.owner === me) return values;
    return { ...values, passwordSet: false, privateKeySet: false, passphraseSet: false, socksProxyPasswordSet: false, clientKeySet: false };
  };
  const title = mode.kind === 'edit' ? t('asset.dialog.edit') : mode.kind === 'copy' ? t('asset.dialog.copy') : t('asset.dialog.new');
  return (
    <FormDialog<AssetValues, Awaited<ReturnType<typeof assets.get>>>
      open={mode.kind !== 'closed'}
      onClose={onClose}
      title={title}
      width={700}
      initialValues={EMPTY_ASSET}
      record={source === undefined ? undefined : { queryKey: [...ASSET_KEYS.one(source), mode.kind], load: () => assets.get(source), toValues: loadValues }}
      fields={[...basicFields(t, assets), ...advancedFields(t)]}
      onSubmit={async (values) => {
        const body = toBody(values);
        if (mode.kind === 'edit') await assets.update(mode.id, body);
        // A copy is a new asset; the secrets left empty are taken from the source by the server.
        else if (mode.kind === 'copy') await assets.create({ ...body, copyFrom: mode.id });
        else await assets.create(body);
        await client.invalidateQueries({ queryKey: ASSET_KEYS.tags });
        await onSaved();
      }}
    />
  );
}
