import { Button } from '@fluentui/react-components';
import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../core/api/client';
import { FormDialog, type FormField } from '../../../core/ui';
import { renderUi } from './render';

interface AssetValues extends Record<string, unknown> {
  id?: string;
  name: string;
  port?: number;
  email: string;
  ip: string;
  accountType: string;
  password: string;
  code: string;
}

const fields: FormField<AssetValues>[] = [
  { name: 'name', label: '名称', required: true, maxLength: 10 },
  { name: 'port', label: '端口', type: 'number', required: true, min: 1, max: 65535 },
  { name: 'email', label: '邮箱', type: 'email' },
  { name: 'ip', label: 'IP', pattern: /^\d+\.\d+\.\d+\.\d+$/, patternMessage: '请输入正确的IP地址' },
  {
    name: 'accountType',
    label: '账户类型',
    type: 'select',
    required: true,
    options: [
      { value: 'custom', label: '自定义' },
      { value: 'credential', label: '授权凭证' },
    ],
  },
  { name: 'password', label: '密码', type: 'password', minLength: 6, visible: (v) => v.accountType === 'custom' },
  { name: 'code', label: '编码', validate: (v) => (v === 'bad' ? '编码不可用' : undefined) },
];

const initial: AssetValues = { id: 'a1', name: '', email: '', ip: '', accountType: '', password: '', code: '' };

function Harness({ onSubmit }: { onSubmit: (v: AssetValues) => Promise<void> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>open</Button>
      <FormDialog
        open={open}
        onClose={() => setOpen(false)}
        title="新建资产"
        fields={fields}
        initialValues={initial}
        onSubmit={onSubmit}
      />
    </>
  );
}

/** A form dialog that opens while something it needs is loading, and a button that ends the loading. */
function Loading() {
  const [open, setOpen] = useState(false);
  const [loading, setLoading] = useState(true);
  return (
    <>
      <Button onClick={() => setOpen(true)}>open</Button>
      <Button onClick={() => setLoading(false)}>loaded</Button>
      <FormDialog open={open} onClose={() => setOpen(false)} title="新建资产" fields={fields} initialValues={initial} loading={loading} onSubmit={async () => undefined} />
    </>
  );
}

const input = (label: RegExp) => screen.getByLabelText(label);


/** Renders the harness, opens its dialog and fills it so that it passes validation (a credential account). */
async function openFilled(onSubmit: (v: AssetValues) => Promise<void>) {
  const { user } = renderUi(<Harness onSubmit={onSubmit} />);
  await user.click(await screen.findByRole('button', { name: 'open' }));
  await screen.findByRole('dialog', {}, { timeout: 10_000 });
  await user.type(input(/^名称/), 'web-1');
  await user.type(input(/^端口/), '22');
  await user.selectOptions(input(/^账户类型/), '授权凭证');
  return user;
}

describe('FormDialog', () => {
  it('shows the zh-CN messages on submit and blocks onSubmit', async () => {
    const onSubmit = vi.fn(async () => {});
    const { user } = renderUi(<Harness onSubmit={onSubmit} />);
    await user.click(await screen.findByRole('button', { name: 'open' }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    expect(within(dialog).getByText('新建资产')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await within(dialog).findByText('请输入名称')).toBeInTheDocument();
    expect(within(dialog).getByText('请输入端口')).toBeInTheDocument();
    expect(within(dialog).getByText('请选择账户类型')).toBeInTheDocument();
    // errors are alerts associated with their fields
    expect(within(dialog).getAllByRole('alert').map((a) => a.textContent)).toEqual(
      expect.arrayContaining(['请输入名称', '请输入端口', '请选择账户类型']),
    );
    expect(input(/^名称/)).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('validates length, range, email, pattern and custom rules on blur', async () => {
    const { user } = renderUi(<Harness onSubmit={async () => {}} />);
    await user.click(await screen.findByRole('button', { name: 'open' }));
    await screen.findByRole('dialog', {}, { timeout: 10_000 });
    await user.type(input(/^名称/), 'abcdefghijk');
    await user.type(input(/^端口/), '70000');
    await user.type(input(/^邮箱/), 'not-an-email');
    await user.type(input(/^IP/), 'x.y');
    await user.type(input(/^编码/), 'bad');
    await user.click(screen.getByText('新建资产')); // blur
    // The length limit stops the typing itself (the input's maxlength): no message needed.
    expect(input(/^名称/)).toHaveAttribute('maxlength', '10');
    expect(input(/^名称/)).toHaveValue('abcdefghij');
    expect(screen.queryByText('名称最多为10个字符')).toBeNull();
    expect(await screen.findByText('端口必须在1和65535之间')).toBeInTheDocument();
    expect(screen.getByText('邮箱不是一个有效的邮箱')).toBeInTheDocument();
    expect(screen.getByText('请输入正确的IP地址')).toBeInTheDocument();
    expect(screen.getByText('编码不可用')).toBeInTheDocument();
    // fixing a value clears its message
    await user.clear(input(/^端口/));
    await user.type(input(/^端口/), '22');
    await waitFor(() => expect(screen.queryByText('端口必须在1和65535之间')).not.toBeInTheDocument());
  });

  it('does not flag a field the user only passed through: on blur only once changed, every field on submit', async () => {
    const { user } = renderUi(<Harness onSubmit={async () => {}} />);
    await user.click(await screen.findByRole('button', { name: 'open' }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    // Tab through 名称 and 端口 without typing, then click elsewhere: no message moves the form under the pointer.
    await user.click(input(/^名称/));
    await user.tab();
    await user.tab();
    await user.click(within(dialog).getByText('新建资产'));
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(input(/^名称/)).not.toHaveAttribute('aria-invalid', 'true');
    // Changed, then emptied: now it says so on blur.
    await user.type(input(/^名称/), 'x');
    await user.clear(input(/^名称/));
    await user.tab();
    expect(await within(dialog).findByText('请输入名称')).toBeInTheDocument();
    expect(within(dialog).queryByText('请输入端口')).toBeNull();
    // Submit shows every message; a blur on a shown one keeps checking it.
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await within(dialog).findByText('请输入端口')).toBeInTheDocument();
    expect(within(dialog).getByText('请选择账户类型')).toBeInTheDocument();
  });

  it('shows a server refusal that names a field on that field (focused), not in the banner', async () => {
    const onSubmit = vi
      .fn<(v: AssetValues) => Promise<void>>()
      .mockRejectedValueOnce(new ApiError('business', '名称「web-1」已被使用', -1, 200, true, false, { field: 'name' }))
      .mockRejectedValueOnce(new ApiError('business', '别的原因', -1, 200, true, false, { field: 'nothing-shown' }));
    const user = await openFilled(onSubmit);
    await user.click(await screen.findByRole('button', { name: '确定' }));
    const name = input(/^名称/);
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription('名称「web-1」已被使用');
    await waitFor(() => expect(name).toHaveFocus());
    // Changing the value clears it, as any other message of the field.
    await user.type(name, '2');
    await waitFor(() => expect(screen.queryByText('名称「web-1」已被使用')).toBeNull());
    // A field the form does not show: the banner, as before.
    await user.click(screen.getByRole('button', { name: '确定' }));
    expect(await screen.findByText('别的原因')).toBeInTheDocument();
    expect(name).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('shows visible() fields only when their condition holds, and validates them then', async () => {
    const { user } = renderUi(<Harness onSubmit={async () => {}} />);
    await user.click(await screen.findByRole('button', { name: 'open' }));
    await screen.findByRole('dialog', {}, { timeout: 10_000 });
    expect(screen.queryByLabelText(/^密码/)).not.toBeInTheDocument();
    await user.selectOptions(input(/^账户类型/), '自定义');
    const password = input(/^密码/);
    expect(password).toHaveAttribute('type', 'password');
    await user.type(password, '123');
    await user.click(screen.getByText('新建资产')); // blur
    expect(await screen.findByText('密码至少为6个字符')).toBeInTheDocument();
    await user.selectOptions(input(/^账户类型/), '授权凭证');
    expect(screen.queryByLabelText(/^密码/)).not.toBeInTheDocument();
  });

  it('submits the values, shows busy, keeps the dialog open with the server error, then closes on success', async () => {
    let reject: (e: Error) => void = () => {};
    let resolve: () => void = () => {};
    const onSubmit = vi
      .fn<(v: AssetValues) => Promise<void>>()
      .mockImplementationOnce(() => new Promise<void>((_, r) => (reject = r)))
      .mockImplementationOnce(() => new Promise<void>((r) => (resolve = r)));
    const user = await openFilled(onSubmit);
    await user.click(await screen.findByRole('button', { name: '确定' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    // the hidden password field is left out; extra keys of initialValues (id) are kept
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      id: 'a1',
      name: 'web-1',
      port: 22,
      email: '',
      ip: '',
      accountType: 'credential',
      code: '',
    });
    const ok = screen.getByRole('button', { name: '确定' });
    expect(ok).toHaveAttribute('aria-disabled', 'true');
    expect(ok).toHaveAttribute('aria-busy', 'true');
    // It holds the focus while the fields are disabled (a disabled element would drop it to the document).
    expect(ok).toHaveFocus();
    reject(new Error('名称已存在'));
    expect(await screen.findByText('名称已存在')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '确定' })).toBeEnabled();

    await user.click(await screen.findByRole('button', { name: '确定' }));
    expect(onSubmit).toHaveBeenCalledTimes(2);
    resolve();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('submits on Enter in a text field', async () => {
    const onSubmit = vi.fn(async () => {});
    const { user } = renderUi(<Harness onSubmit={onSubmit} />);
    await user.click(await screen.findByRole('button', { name: 'open' }));
    await screen.findByRole('dialog', {}, { timeout: 10_000 });
    await user.selectOptions(input(/^账户类型/), '授权凭证');
    await user.type(input(/^端口/), '22');
    await user.type(input(/^名称/), 'web{Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
  });

  it('cancel closes and resets the form', async () => {
    const onSubmit = vi.fn(async () => {});
    const { user } = renderUi(<Harness onSubmit={onSubmit} />);
    await user.click(await screen.findByRole('button', { name: 'open' }));
    await screen.findByRole('dialog', {}, { timeout: 10_000 });
    await user.type(input(/^名称/), 'typed');
    await user.click(await screen.findByRole('button', { name: '确定' }));
    expect(await screen.findByText('请输入端口')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // the page leaves aria-hidden once Fluent's focus manager drops the closed modal (asynchronously)
    await user.click(await screen.findByRole('button', { name: 'open' }));
    await screen.findByRole('dialog', {}, { timeout: 10_000 });
    expect(input(/^名称/)).toHaveValue('');
    expect(screen.queryByText('请输入端口')).not.toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });
  it('puts the focus on the first field once a dialog that opened while loading has loaded', async () => {
    const { user } = renderUi(<Loading />);
    await user.click(screen.getByRole('button', { name: 'open' }));
    const dialog = await screen.findByRole('dialog');
    // The loading body holds the focus (its Cancel button), then goes; the page behind must not get it back.
    within(dialog).getByRole('button', { name: '取消' }).focus();
    const loaded = screen.getByRole('button', { name: 'loaded', hidden: true });
    loaded.click();
    await waitFor(() => expect(input(/^名称/)).toHaveFocus());
  });
  it('after a rejection gives the focus back (to the message), so Escape closes the dialog', async () => {
    const onSubmit = vi.fn(async () => {
      throw new Error('名称已存在');
    });
    const user = await openFilled(onSubmit);
    await user.click(screen.getByRole('button', { name: '确定' }));
    const banner = await screen.findByText('名称已存在');
    await waitFor(() => expect(banner.closest('[role="alert"]')).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('drops the server message at the next attempt, also one that fails validation', async () => {
    const onSubmit = vi.fn(async () => {
      throw new Error('名称已存在');
    });
    const user = await openFilled(onSubmit);
    await user.click(screen.getByRole('button', { name: '确定' }));
    expect(await screen.findByText('名称已存在')).toBeInTheDocument();
    await user.clear(input(/^名称/));
    await user.click(screen.getByRole('button', { name: '确定' }));
    expect(await screen.findByText('请输入名称')).toBeInTheDocument();
    expect(screen.queryByText('名称已存在')).not.toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('lets the user cancel while a submit has no answer yet; the late answer leaves a dialog opened since alone', async () => {
    let resolve: () => void = () => {};
    const onSubmit = vi
      .fn<(v: AssetValues) => Promise<void>>()
      .mockImplementationOnce(() => new Promise<void>((r) => (resolve = r)));
    const user = await openFilled(onSubmit);
    await user.click(screen.getByRole('button', { name: '确定' }));
    expect(screen.getByRole('button', { name: '确定' })).toHaveAttribute('aria-disabled', 'true');
    const cancel = screen.getByRole('button', { name: '取消' });
    expect(cancel).toBeEnabled();
    await user.click(cancel);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(await screen.findByRole('button', { name: 'open' }));
    await screen.findByRole('dialog', {}, { timeout: 10_000 });
    resolve();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
  it('keeps the focus in the dialog while busy (on OK), so Escape still closes it', async () => {
    const onSubmit = vi.fn(() => new Promise<void>(() => undefined));
    const { user } = renderUi(<Harness onSubmit={onSubmit} />);
    await user.click(await screen.findByRole('button', { name: 'open' }));
    await screen.findByRole('dialog', {}, { timeout: 10_000 });
    await user.selectOptions(input(/^账户类型/), '授权凭证');
    await user.type(input(/^端口/), '22');
    await user.type(input(/^名称/), 'web{Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(input(/^名称/)).toBeDisabled();
    expect(screen.getByRole('button', { name: '确定' })).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
