// The kit's form dialog built from a field list, shaped like the asset form the resources issue needs: every field
// kind, sections that follow the account type, a secret that is kept unless changed, zod rules with the generic
// messages, remote options loaded only while their field is shown, the record of an edit, server errors, busy state.
import { renderWithProviders } from '@/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type ApiClient, FormDialog, type FormItem, useApi, z } from '../../../core';

vi.setConfig({ testTimeout: 30_000 });

const EMPTY = {
  name: '',
  protocol: '',
  port: 22 as number | undefined,
  accountType: 'custom',
  credentialId: '',
  username: '',
  password: '',
  privateKey: '',
  passphrase: '',
  tags: [] as string[],
  drive: false,
  description: '',
  code: '',
  alias: '',
};
type AssetValues = typeof EMPTY;

function assetFields(api: ApiClient, secretSet: boolean): FormItem<AssetValues>[] {
  const choices = (path: string) => async () => (await api.get<{ id: string; name: string }[]>(path)).map((c) => ({ value: c.id, label: c.name }));
  return [
    { name: 'name', label: '资产名称', required: true, maxLength: 20 },
    { name: 'protocol', label: '协议', type: 'select', required: true, options: [{ value: 'ssh', label: 'SSH' }, { value: 'rdp', label: 'RDP' }] },
    { name: 'port', label: '端口', type: 'number', required: true, min: 1, max: 65535 },
    {
      name: 'accountType',
      label: '账户类型',
      type: 'select',
      required: true,
      options: [{ value: 'custom', label: '密码' }, { value: 'credential', label: '授权凭证' }, { value: 'private-key', label: '密钥' }],
    },
    {
      name: 'credentialId',
      label: '凭证',
      type: 'select',
      required: true,
      remoteOptions: { queryKey: ['credentials'], load: choices('/credentials') },
      visible: (v) => v.accountType === 'credential',
    },
    {
      section: '密码认证',
      visible: (v) => v.accountType === 'custom',
      fields: [
        { name: 'username', label: '授权账户' },
        { name: 'password', label: '授权密码', type: 'password', required: true, isSet: secretSet },
      ],
    },
    {
      section: '密钥认证',
      visible: (v) => v.accountType === 'private-key',
      fields: [
        { name: 'username', label: '授权账户' },
        { name: 'privateKey', label: '私钥', type: 'textarea', required: true },
        { name: 'passphrase', label: '私钥密码', type: 'password' },
      ],
    },
    { name: 'tags', label: '标签', type: 'multiselect', remoteOptions: { queryKey: ['tags'], load: choices('/tags') } },
    { name: 'drive', label: '映射网络驱动器', type: 'switch' },
    { name: 'description', label: '备注', type: 'textarea' },
    { name: 'code', label: '编号', rule: z.string().check(z.regex(/^[A-Z]+$/, '编号只能是大写字母')) },
    { name: 'alias', label: '别名', rule: z.string().check(z.minLength(3)) },
  ];
}

function AssetDialog({ edit, onSubmit }: { edit?: string; onSubmit: (values: AssetValues) => Promise<void> | void }) {
  const api = useApi();
  const [open, setOpen] = useState(true);
  return (
    <>
      <FormDialog<AssetValues>
        open={open}
        onClose={() => setOpen(false)}
        title={edit ? '更新资产' : '新建资产'}
        fields={assetFields(api, edit !== undefined)}
        initialValues={EMPTY}
        record={edit ? { queryKey: ['asset', edit], load: () => api.get(`/assets/${edit}`) } : undefined}
        onSubmit={onSubmit}
      />
      {open ? null : <p>已关闭</p>}
    </>
  );
}

const LISTS = {
  'GET /credentials': [{ id: 'c1', name: '运维凭证' }],
  'GET /tags': [
    { id: 'prod', name: '生产' },
    { id: 'test', name: '测试' },
  ],
};

describe('the form dialog from a field list', () => {
  it('fills every field kind and submits the visible values', async () => {
    const onSubmit = vi.fn();
    const { user } = await renderWithProviders(<AssetDialog onSubmit={onSubmit} />, { api: LISTS });
    const dialog = within(await screen.findByRole('dialog', { name: '新建资产' }));
    await user.type(dialog.getByRole('textbox', { name: /资产名称/ }), 'web-01');
    await user.selectOptions(dialog.getByRole('combobox', { name: /协议/ }), 'SSH');
    const port = dialog.getByRole('spinbutton', { name: /端口/ });
    await user.clear(port);
    await user.type(port, '2222');
    await user.type(dialog.getByRole('textbox', { name: /授权账户/ }), 'root');
    await user.type(dialog.getByLabelText(/授权密码/), 'S3cret!');
    await user.click(dialog.getByRole('combobox', { name: /标签/ }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: '测试' }));
    await user.keyboard('{Escape}');
    await user.click(dialog.getByRole('switch', { name: /映射网络驱动器/ }));
    await user.type(dialog.getByRole('textbox', { name: /备注/ }), '第一行{Enter}第二行');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      name: 'web-01',
      protocol: 'ssh',
      port: 2222,
      accountType: 'custom',
      username: 'root',
      password: 'S3cret!',
      tags: ['test'],
      drive: true,
      description: '第一行\n第二行',
      code: '',
      alias: '',
    });
    expect(await screen.findByText('已关闭')).toBeInTheDocument();
  });

  it('shows the generic messages, zod rules included, and a rule’s own message', async () => {
    const onSubmit = vi.fn();
    const { user } = await renderWithProviders(<AssetDialog onSubmit={onSubmit} />, { api: LISTS });
    const dialog = within(await screen.findByRole('dialog', { name: '新建资产' }));
    await user.clear(dialog.getByRole('spinbutton', { name: /端口/ }));
    await user.type(dialog.getByRole('spinbutton', { name: /端口/ }), '70000');
    // Typing stops at the limit (maxlength); a longer value (a record saved before a limit) still gets the message.
    fireEvent.change(dialog.getByRole('textbox', { name: /资产名称/ }), { target: { value: 'a-name-far-too-long-for-it' } });
    await user.type(dialog.getByRole('textbox', { name: /编号/ }), 'abc');
    await user.type(dialog.getByRole('textbox', { name: /别名/ }), 'ab');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('资产名称最多为20个字符')).toBeInTheDocument();
    expect(dialog.getByText('请选择协议')).toBeInTheDocument();
    expect(dialog.getByText('端口必须在1和65535之间')).toBeInTheDocument();
    expect(dialog.getByText('请输入授权密码')).toBeInTheDocument();
    expect(dialog.getByText('编号只能是大写字母')).toBeInTheDocument();
    expect(dialog.getByText('别名至少为3个字符')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows the fields of the chosen account type only, validates them only while shown, and loads their options then', async () => {
    const onSubmit = vi.fn();
    const { user, api } = await renderWithProviders(<AssetDialog onSubmit={onSubmit} />, { api: LISTS });
    const dialog = within(await screen.findByRole('dialog', { name: '新建资产' }));
    await user.type(dialog.getByRole('textbox', { name: /资产名称/ }), 'web-01');
    await user.selectOptions(dialog.getByRole('combobox', { name: /协议/ }), 'SSH');
    expect(dialog.getByRole('group', { name: '密码认证' })).toBeInTheDocument();
    expect(dialog.queryByRole('group', { name: '密钥认证' })).toBeNull();
    expect(dialog.queryByRole('combobox', { name: /凭证/ })).toBeNull();
    expect(api.callsTo('GET /credentials')).toHaveLength(0);
    await user.type(dialog.getByRole('textbox', { name: /授权账户/ }), 'root');

    // private key: its section appears, its required field is checked, the password section goes
    await user.selectOptions(dialog.getByRole('combobox', { name: /账户类型/ }), '密钥');
    expect(dialog.queryByRole('group', { name: '密码认证' })).toBeNull();
    const keys = within(dialog.getByRole('group', { name: '密钥认证' }));
    expect(keys.getByRole('textbox', { name: /授权账户/ })).toHaveValue('root'); // one value under one name
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入私钥')).toBeInTheDocument();
    expect(dialog.queryByText('请输入授权密码')).toBeNull();

    // credential: the private-key message goes with its field; the credentials load now, and are required
    await user.selectOptions(dialog.getByRole('combobox', { name: /账户类型/ }), '授权凭证');
    expect(dialog.queryByText('请输入私钥')).toBeNull();
    const credential = await dialog.findByRole('combobox', { name: /凭证/ });
    await waitFor(() => expect(within(credential).getByRole('option', { name: '运维凭证' })).toBeInTheDocument());
    expect(api.callsTo('GET /credentials')).toHaveLength(1);
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请选择凭证')).toBeInTheDocument();
    await user.selectOptions(credential, '运维凭证');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const sent = onSubmit.mock.calls[0]?.[0];
    expect(sent).toMatchObject({ accountType: 'credential', credentialId: 'c1' });
    for (const hidden of ['username', 'password', 'privateKey', 'passphrase']) expect(sent).not.toHaveProperty(hidden);
  });

  it('edits a record: starts from it and keeps a stored password left empty', async () => {
    const record = { id: 'a1', name: 'web-01', protocol: 'ssh', port: 22, accountType: 'custom', username: 'root', description: null };
    const onSubmit = vi.fn();
    const { user, api } = await renderWithProviders(<AssetDialog edit="a1" onSubmit={onSubmit} />, {
      api: { ...LISTS, 'GET /assets/:id': record },
    });
    const dialog = within(await screen.findByRole('dialog', { name: '更新资产' }));
    expect(await dialog.findByRole('textbox', { name: /资产名称/ })).toHaveValue('web-01');
    expect(dialog.getByRole('textbox', { name: /备注/ })).toHaveValue(''); // null in the record: the initial value
    expect(api.callsTo('GET /assets/:id').map((c) => c.path)).toEqual(['/assets/a1']);
    const password = dialog.getByLabelText(/授权密码/);
    expect(password).toHaveValue('');
    expect(password).toHaveAttribute('placeholder', '留空则不修改');
    expect(dialog.getByText('已设置；留空则保持不变')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ name: 'web-01', username: 'root' });
    expect(onSubmit.mock.calls[0]?.[0]).not.toHaveProperty('password');
  });

  it('sends a new password on an edit when one is typed', async () => {
    const onSubmit = vi.fn();
    const { user } = await renderWithProviders(<AssetDialog edit="a1" onSubmit={onSubmit} />, {
      api: { ...LISTS, 'GET /assets/:id': { name: 'web-01', protocol: 'ssh', port: 22, accountType: 'custom' } },
    });
    const dialog = within(await screen.findByRole('dialog', { name: '更新资产' }));
    await user.type(await dialog.findByLabelText(/授权密码/), 'N3w-pass');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ password: 'N3w-pass' });
  });

  it('says so at the field when its options do not load', async () => {
    await renderWithProviders(<AssetDialog onSubmit={vi.fn()} />, {
      api: { ...LISTS, 'GET /tags': () => Promise.reject(new Error('标签服务不可用')) },
    });
    const dialog = within(await screen.findByRole('dialog', { name: '新建资产' }));
    expect(await dialog.findByText('选项加载失败：标签服务不可用')).toBeInTheDocument();
  });

  it('says why an edit cannot start when its record does not load', async () => {
    const onSubmit = vi.fn();
    const { user } = await renderWithProviders(<AssetDialog edit="gone" onSubmit={onSubmit} />, {
      api: { ...LISTS, 'GET /assets/:id': () => Promise.reject(new Error('资产不存在')) },
    });
    const dialog = within(await screen.findByRole('dialog', { name: '更新资产' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('资产不存在');
    expect(dialog.getByRole('button', { name: '确定' })).toBeDisabled();
    await user.click(dialog.getByRole('button', { name: '取消' }));
    expect(await screen.findByText('已关闭')).toBeInTheDocument();
  });

  it('is busy while submitting, and shows a server refusal without closing', async () => {
    let refuse: (error: Error) => void = () => {};
    const onSubmit = vi.fn(() => new Promise<void>((_, reject) => (refuse = reject)));
    const { user } = await renderWithProviders(<AssetDialog onSubmit={onSubmit} />, { api: LISTS });
    const dialog = within(await screen.findByRole('dialog', { name: '新建资产' }));
    await user.type(dialog.getByRole('textbox', { name: /资产名称/ }), 'web-01');
    await user.selectOptions(dialog.getByRole('combobox', { name: /协议/ }), 'SSH');
    await user.type(dialog.getByLabelText(/授权密码/), 'pw');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(dialog.getByRole('button', { name: '确定' })).toHaveAttribute('aria-busy', 'true'));
    // Not offered, yet focusable: it holds the focus while the fields are disabled.
    expect(dialog.getByRole('button', { name: '确定' })).toHaveAttribute('aria-disabled', 'true');
    expect(dialog.getByRole('textbox', { name: /资产名称/ })).toBeDisabled();
    refuse(new Error('资产名称「web-01」已存在'));
    expect(await dialog.findByRole('alert')).toHaveTextContent('资产名称「web-01」已存在');
    expect(dialog.getByRole('button', { name: '确定' })).toBeEnabled();
    expect(dialog.getByRole('textbox', { name: /资产名称/ })).toHaveValue('web-01');
    expect(screen.queryByText('已关闭')).toBeNull();
  });
});
