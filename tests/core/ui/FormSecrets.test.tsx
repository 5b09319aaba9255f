// Secrets in the form kit beyond a plain password: a private key (textarea) kept when left empty, "is set" read from
// the edited record's flags (`passwordSet`…) so it follows a type switch, and textarea sizing and fixed-width text.
import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { FormDialog, type FormItem, type FormValues, validateField } from '../../../core/ui';
import { dataKeyT } from '../../../core/i18n/types';
import { createTestI18n, renderUi } from './render';

const EMPTY = { name: '', type: 'custom', password: '', privateKey: '', passwordSet: false, privateKeySet: false };
type Values = typeof EMPTY;

const FIELDS: FormItem<Values>[] = [
  { name: 'name', label: '名称', required: true },
  { name: 'type', label: '类型', type: 'radio', options: [{ value: 'custom', label: '密码' }, { value: 'private-key', label: '密钥' }] },
  { section: '', visible: (v) => v.type === 'custom', fields: [{ name: 'password', label: '授权密码', type: 'password', required: true, isSet: (v) => v.passwordSet }] },
  {
    section: '',
    visible: (v) => v.type === 'private-key',
    fields: [{ name: 'privateKey', label: '私钥', type: 'textarea', required: true, monospace: true, rows: { min: 3, max: 5 }, isSet: (v) => v.privateKeySet }],
  },
];

function Dialog({ record, onSubmit }: { record?: Values; onSubmit: (v: Values) => void }) {
  const [open] = useState(true);
  return (
    <FormDialog<Values>
      open={open}
      onClose={() => {}}
      title="凭证"
      fields={FIELDS}
      initialValues={EMPTY}
      record={record ? { queryKey: ['secret-test'], load: async () => record } : undefined}
      onSubmit={onSubmit}
    />
  );
}

const t = (key: string, values?: Record<string, unknown>) => {
  const i18n = createTestI18n();
  return dataKeyT(i18n.t.bind(i18n))(key, { ns: 'kit', ...values });
};

describe('secrets in forms', () => {
  it('keeps a stored private key left empty: no message, not submitted', async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<Dialog record={{ ...EMPTY, name: 'k', type: 'private-key', privateKeySet: true }} onSubmit={onSubmit} />);
    const dialog = within(await screen.findByRole('dialog', { name: '凭证' }));
    const key = await dialog.findByRole('textbox', { name: /私钥/ });
    expect(key).toHaveValue('');
    expect(key).toHaveAttribute('placeholder', '留空则不修改');
    expect(dialog.getByText('已设置；留空则保持不变')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).not.toHaveProperty('privateKey');
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ name: 'k', type: 'private-key' });
  });

  it('requires the secret that the record lacks after a type switch, and submits a new one', async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<Dialog record={{ ...EMPTY, name: 'k', type: 'private-key', privateKeySet: true }} onSubmit={onSubmit} />);
    const dialog = within(await screen.findByRole('dialog', { name: '凭证' }));
    await user.click(await dialog.findByRole('radio', { name: '密码' }));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入授权密码')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(dialog.getByLabelText(/授权密码/), 'n3w');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ type: 'custom', password: 'n3w' });
    expect(onSubmit.mock.calls[0]?.[0]).not.toHaveProperty('privateKey');
  });

  it('grows a textarea within its rows and sets it in a fixed-width font', async () => {
    const { user } = renderUi(<Dialog onSubmit={() => {}} />);
    const dialog = within(await screen.findByRole('dialog', { name: '凭证' }));
    await user.click(await dialog.findByRole('radio', { name: '密钥' }));
    const key = dialog.getByRole('textbox', { name: /私钥/ });
    expect(key).toHaveAttribute('rows', '3');
    await user.type(key, 'a{Enter}b{Enter}c{Enter}d');
    expect(key).toHaveAttribute('rows', '4');
    await user.type(key, '{Enter}e{Enter}f{Enter}g');
    expect(key).toHaveAttribute('rows', '5');
    const name = dialog.queryByRole('textbox', { name: /名称/ });
    if (!name) throw new Error('no name field');
    expect(getComputedStyle(key).fontFamily).toMatch(/mono|Consolas|Courier/i);
    expect(getComputedStyle(name).fontFamily).not.toMatch(/mono|Consolas|Courier/i);
  });

  it('treats isSet as meaningless on a field that is not a secret', () => {
    const none: FormValues = {};
    expect(validateField({ name: 'name', label: '名称', required: true, isSet: true }, '', none, t)).toBe('请输入名称');
    expect(validateField({ name: 'k', label: '私钥', type: 'textarea', required: true, isSet: () => true }, '', none, t)).toBeUndefined();
  });
});
