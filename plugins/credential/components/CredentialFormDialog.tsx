import { FormDialog, type FormItem, type RecordDialog, useEndpoints, useTranslation } from '@/core';
import { type CredentialBody, type CredentialRecord, type CredentialType, credentialApi, KEYS } from '../api';

const EMPTY = {
  name: '',
  type: 'custom' as CredentialType,
  username: '',
  password: '',
  privateKey: '',
  passphrase: '',
  // What the edited record says is stored: its secrets themselves never reach the form.
  passwordSet: false,
  privateKeySet: false,
  passphraseSet: false,
};
type Values = typeof EMPTY;

function toValues(record: CredentialRecord): Values {
  return {
    ...EMPTY,
    name: record.name,
    type: record.type === 'private-key' ? 'private-key' : 'custom',
    // 1.3.9 stores "-" for an empty account.
    username: record.username === '-' ? '' : (record.username ?? ''),
    passwordSet: record.passwordSet === true,
    privateKeySet: record.privateKeySet === true,
    passphraseSet: record.passphraseSet === true,
  };
}

/** The body for the chosen type: only its secrets, and only those typed in (an empty one is kept on an edit). */
function toBody(v: Partial<Values>): CredentialBody {
  const type: CredentialType = v.type === 'private-key' ? 'private-key' : 'custom';
  const body: CredentialBody = { name: (v.name ?? '').trim(), type, username: (v.username ?? '').trim() };
  const secrets = type === 'custom' ? (['password'] as const) : (['privateKey', 'passphrase'] as const);
  for (const key of secrets) {
    const value = v[key];
    if (value) body[key] = value;
  }
  return body;
}

/** 新建授权凭证 / 更新授权凭证: a password or a private key (with its passphrase), secrets kept unless retyped. */
export function CredentialFormDialog({ dialog, onSaved }: { dialog: RecordDialog; onSaved: () => Promise<void> }) {
  const { t } = useTranslation('credential');
  const credentials = useEndpoints(credentialApi);
  const { id } = dialog;
  const fields: FormItem<Values>[] = [
    { name: 'name', label: t('fields.name'), required: true, requiredMessage: t('validation.name'), maxLength: 128 },
    {
      name: 'type',
      label: t('fields.type'),
      type: 'radio',
      required: true,
      options: [
        { value: 'custom', label: t('type.custom') },
        { value: 'private-key', label: t('type.privateKey') },
      ],
    },
    { name: 'username', label: t('fields.username'), autoComplete: 'off' },
    {
      section: t('sections.password'),
      visible: (v) => v.type === 'custom',
      fields: [{ name: 'password', label: t('fields.password'), type: 'password', autoComplete: 'new-password', isSet: (v) => v.passwordSet }],
    },
    {
      section: t('sections.privateKey'),
      visible: (v) => v.type === 'private-key',
      fields: [
        {
          name: 'privateKey',
          label: t('fields.privateKey'),
          type: 'textarea',
          required: true,
          requiredMessage: t('validation.privateKey'),
          rows: { min: 4, max: 10 },
          monospace: true,
          placeholder: t('placeholders.privateKey'),
          isSet: (v) => v.privateKeySet,
        },
        { name: 'passphrase', label: t('fields.passphrase'), type: 'password', autoComplete: 'new-password', isSet: (v) => v.passphraseSet },
      ],
    },
  ];

  return (
    <FormDialog<Values, CredentialRecord>
      open={dialog.open}
      onClose={dialog.close}
      title={t(id === undefined ? 'dialog.new' : 'dialog.edit')}
      initialValues={EMPTY}
      record={id === undefined ? undefined : { queryKey: KEYS.one(id), load: () => credentials.get(id), toValues }}
      fields={fields}
      onSubmit={async (v) => {
        const body = toBody(v);
        await (id === undefined ? credentials.create(body) : credentials.update(id, body));
        await onSaved();
      }}
    />
  );
}
