import { FormDialog, type FormItem, isHost, type RecordDialog, useEndpoints, useTranslation, z } from '@/core';
import { GATEWAY_KEYS, type GatewayAccountType, type GatewayBody, type GatewayRecord, gatewayApi, isKeyLogin } from './api';

const EMPTY = {
  name: '',
  ip: '',
  port: 22 as number | undefined,
  accountType: 'custom' as GatewayAccountType,
  username: '',
  password: '',
  privateKey: '',
  passphrase: '',
  // What the edited record says is stored: its secrets themselves never reach the form.
  passwordSet: false,
  privateKeySet: false,
  passphraseSet: false,
  /** The pinned host key's fingerprint, '' = recorded at the next connection. */
  hostKey: '',
  /** The host key as loaded: only a changed one is sent (a trust, which the server may refuse). */
  savedHostKey: '',
  /** `ip:port user` the stored password was entered for: the server keeps it only while the gateway stays there. */
  savedAt: '',
};
type Values = typeof EMPTY;

const addressOf = (v: Pick<Values, 'ip' | 'port' | 'username'>) => `${v.ip.trim()}:${v.port ?? ''} ${v.username.trim()}`;

/** An OpenSSH SHA-256 fingerprint, or nothing (recorded at the next connection). */
const HOST_KEY = /^$|^SHA256:[A-Za-z0-9+/]{43}=?$/;

function toValues(record: GatewayRecord): Values {
  return {
    ...EMPTY,
    name: record.name,
    ip: record.ip,
    port: record.port,
    accountType: isKeyLogin(record.accountType) ? 'private-key' : 'custom',
    username: record.username === '-' ? '' : (record.username ?? ''),
    passwordSet: record.passwordSet === true,
    privateKeySet: record.privateKeySet === true,
    passphraseSet: record.passphraseSet === true,
    hostKey: record.hostKey ?? '',
    savedHostKey: record.hostKey ?? '',
    savedAt: addressOf({ ip: record.ip, port: record.port, username: record.username === '-' ? '' : (record.username ?? '') }),
  };
}

/** The body for the chosen account type: only its secrets, and only those typed in (an empty one is kept on an edit). */
function toBody(v: Partial<Values>): GatewayBody {
  const accountType: GatewayAccountType = v.accountType === 'private-key' ? 'private-key' : 'custom';
  const body: GatewayBody = {
    name: (v.name ?? '').trim(),
    ip: (v.ip ?? '').trim(),
    port: v.port ?? 22,
    accountType,
    username: (v.username ?? '').trim(),
  };
  const hostKey = (v.hostKey ?? '').trim();
  if (hostKey !== (v.savedHostKey ?? '')) body.hostKey = hostKey;
  const secrets = accountType === 'custom' ? (['password'] as const) : (['privateKey', 'passphrase'] as const);
  for (const key of secrets) {
    const value = v[key];
    if (value) body[key] = value;
  }
  return body;
}

/** 新建接入网关 / 更新接入网关: an SSH jump host and how to log in to it (password, or key + passphrase). */
export function GatewayFormDialog({ dialog, onSaved }: { dialog: RecordDialog; onSaved: () => Promise<void> }) {
  const { t } = useTranslation('asset');
  const gateways = useEndpoints(gatewayApi);
  const { id } = dialog;
  const fields: FormItem<Values>[] = [
    { name: 'name', label: t('gateway.fields.name'), required: true, requiredMessage: t('gateway.validation.name'), maxLength: 128 },
    {
      name: 'ip',
      label: t('gateway.fields.host'),
      required: true,
      requiredMessage: t('gateway.validation.host'),
      maxLength: 253,
      // The secret stays with its address (the kit's "set" hint sits on the secret field itself).
      hint: t('gateway.hints.secretStays'),
      validate: (v) => (isHost(String(v).trim()) ? undefined : t('asset.validation.hostInvalid')), autoComplete: 'off' },
    { name: 'port', label: t('gateway.fields.port'), type: 'number', required: true, min: 1, max: 65535, rule: z.int() },
    {
      name: 'accountType',
      label: t('gateway.fields.accountType'),
      type: 'radio',
      required: true,
      options: [
        { value: 'custom', label: t('gateway.accountType.custom') },
        { value: 'private-key', label: t('gateway.accountType.privateKey') },
      ],
    },
    {
      name: 'username',
      label: t('gateway.fields.username'),
      required: true,
      requiredMessage: t('gateway.validation.username'),
      placeholder: 'root',
      autoComplete: 'off',
    },
    {
      section: t('gateway.sections.password'),
      visible: (v) => v.accountType === 'custom',
      fields: [
        {
          name: 'password',
          label: t('gateway.fields.password'),
          type: 'password',
          required: true,
          requiredMessage: t('gateway.validation.password'),
          autoComplete: 'new-password',
          // Moved elsewhere, the password must be typed again (the server refuses to send the stored one there).
          isSet: (v) => v.passwordSet && v.savedAt === addressOf(v),
        },
      ],
    },
    {
      section: t('gateway.sections.privateKey'),
      visible: (v) => v.accountType === 'private-key',
      fields: [
        {
          name: 'privateKey',
          label: t('gateway.fields.privateKey'),
          type: 'textarea',
          required: true,
          requiredMessage: t('gateway.validation.privateKey'),
          rows: { min: 4, max: 10 },
          monospace: true,
          placeholder: t('gateway.placeholders.privateKey'),
          isSet: (v) => v.privateKeySet,
        },
        { name: 'passphrase', label: t('gateway.fields.passphrase'), type: 'password', autoComplete: 'new-password', isSet: (v) => v.passphraseSet },
      ],
    },
    {
      name: 'hostKey',
      label: t('gateway.fields.hostKey'),
      placeholder: 'SHA256:…',
      maxLength: 100,
      monospace: true,
      autoComplete: 'off',
      hint: t('gateway.hints.hostKey'),
      validate: (v) => (HOST_KEY.test(String(v).trim()) ? undefined : t('asset.validation.hostKey')),
    },
  ];

  return (
    <FormDialog<Values, GatewayRecord>
      open={dialog.open}
      onClose={dialog.close}
      title={t(id === undefined ? 'gateway.dialog.new' : 'gateway.dialog.edit')}
      initialValues={EMPTY}
      record={id === undefined ? undefined : { queryKey: GATEWAY_KEYS.one(id), load: () => gateways.get(id), toValues }}
      fields={fields}
      onSubmit={async (v) => {
        const body = toBody(v);
        await (id === undefined ? gateways.create(body) : gateways.update(id, body));
        await onSaved();
      }}
    />
  );
}
