// The form kit's later additions: custom required/invalid messages, the searchable multi-select, edit dialogs
// whose record arrives after they open.
import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { FormDialog, type FormField, type FormValues, validateField } from '../../../core/ui';
import { createTestI18n, renderUi } from './render';
import { dataKeyT } from '../../../core/i18n/types';

const none: FormValues = {};
const t = (key: string, values?: Record<string, unknown>) => {
  const i18n = createTestI18n();
  return dataKeyT(i18n.t.bind(i18n))(key, { ns: 'kit', ...values });
};

describe('validation messages', () => {
  it('uses requiredMessage and invalidMessage when given, the kit messages otherwise', () => {
    const name: FormField = { name: 'name', label: '名称', required: true, requiredMessage: '请输入角色名称' };
    expect(validateField(name, '', none, t)).toBe('请输入角色名称');
    expect(validateField({ ...name, requiredMessage: undefined }, '', none, t)).toBe('请输入名称');
    const mail: FormField = { name: 'mail', label: '邮箱', type: 'email', invalidMessage: '请输入正确的邮箱' };
    expect(validateField(mail, 'x', none, t)).toBe('请输入正确的邮箱');
    expect(validateField({ ...mail, invalidMessage: undefined }, 'x', none, t)).toBe('邮箱不是一个有效的邮箱');
  });
});

interface Values extends Record<string, unknown> {
  name: string;
  members: string[];
}

function EditDialog({ record, onSubmit }: { record?: Values; onSubmit: (v: Values) => void }) {
  const [open] = useState(true);
  const fields: FormField<Values>[] = [
    { name: 'name', label: '名称', required: true },
    {
      name: 'members',
      label: '成员',
      type: 'multiselect',
      searchable: true,
      options: [
        { value: 'u1', label: 'Ann (ann)' },
        { value: 'u2', label: 'Bob (bob)' },
        { value: 'u3', label: 'Carl (carl)' },
      ],
    },
  ];
  return (
    <FormDialog<Values>
      open={open}
      onClose={() => {}}
      title="编辑"
      fields={fields}
      loading={!record}
      initialValues={record ?? { name: '', members: [] }}
      onSubmit={onSubmit}
    />
  );
}

const choices = () => screen.getAllByRole('option').filter((o) => !o.closest('[aria-label="已选项"]')).map((o) => o.textContent);

describe('FormDialog with a late record and a searchable multi-select', () => {
  it('starts the form from the record once loading ends, and filters options as the user types', async () => {
    const onSubmit = vi.fn();
    const { user, rerender } = renderUi(<EditDialog onSubmit={onSubmit} />);
    expect(screen.getByText('加载中…')).toBeInTheDocument();
    rerender(<EditDialog record={{ name: '运维组', members: ['u1'] }} onSubmit={onSubmit} />);
    const dialog = within(await screen.findByRole('dialog'));
    expect(await dialog.findByRole('textbox', { name: /名称/ })).toHaveValue('运维组');
    const picked = within(dialog.getByRole('listbox', { name: '已选项' }));
    expect(picked.getAllByRole('option').map((o) => o.textContent)).toEqual(['Ann (ann)']);

    const search = dialog.getByRole('combobox', { name: /成员/ });
    await user.click(search);
    await user.type(search, 'CA');
    await waitFor(() => expect(choices()).toEqual(['Carl (carl)']));
    await user.click(await screen.findByRole('option', { name: 'Carl (carl)' }));
    await user.type(search, 'nobody');
    await waitFor(() => expect(choices()).toEqual(['无匹配结果']));
    await user.keyboard('{Escape}');
    await user.click(picked.getByRole('option', { name: 'Ann (ann) 移除' }));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: '运维组', members: ['u3'] }));
  });
});
