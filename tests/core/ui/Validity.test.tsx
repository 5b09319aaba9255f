// The kit's pieces for time-limited grants: the datetime field, the validity window (fields, text, badge), the
// access explanation, and disabled options in the searchable multi-select.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FormDialog, type FormField, type FormItem, validateField } from '../../../core/ui';
import { AccessExplainDialog, type AccessExplanation, useValidityFields, ValidityBadge, ValidityWindow } from '../../../domain';
import { joinDateTime, parseDate, parseTime, splitDateTime } from '../../../core/ui/form/datetime';
import { dataKeyT } from '../../../core/i18n/types';
import { typeDateTime } from '../../../core/testing';
import { createTestI18n, renderUi } from './render';

const t = (key: string, values?: Record<string, unknown>) => {
  const i18n = createTestI18n();
  return dataKeyT(i18n.t.bind(i18n))(key, { ns: 'kit', ...values });
};

describe('datetime values', () => {
  it('splits and joins the wire format as a date and a time without shifting the clock', () => {
    expect(splitDateTime('2026-12-01 08:05:09')).toEqual({ date: '2026-12-01', time: '08:05:09' });
    expect(splitDateTime('')).toEqual({ date: '', time: '' });
    expect(splitDateTime('2026-12-01')).toEqual({ date: '', time: '' });
    expect(splitDateTime(undefined)).toEqual({ date: '', time: '' });
    expect(parseDate('2026-1-5')).toBe('2026-01-05');
    expect(parseDate('2026-02-30')).toBeUndefined();
    expect(parseDate('12/01/2026')).toBeUndefined();
    expect(parseTime('9:5')).toBe('09:05:00');
    expect(parseTime('23:59:59')).toBe('23:59:59');
    expect(parseTime('24:00')).toBeUndefined();
    expect(joinDateTime('2026-12-01', '08:05:09')).toBe('2026-12-01 08:05:09');
    expect(joinDateTime('2026-12-01', '')).toBe('2026-12-01 00:00:00');
    expect(joinDateTime('2026-12-01', '', '23:59:59')).toBe('2026-12-01 23:59:59');
    expect(joinDateTime('', '')).toBe('');
    // Not a wire value: the form's rule says it is invalid instead of keeping a half-typed moment.
    expect(joinDateTime('2026-02-30', '08:00')).toBe('2026-02-30T08:00');
    expect(joinDateTime('', '08:00')).toBe('T08:00');
  });

  it('validates a datetime field: empty passes unless required, a malformed value fails', () => {
    const field: FormField = { name: 'at', label: '生效时间', type: 'datetime' };
    expect(validateField(field, '', {}, t)).toBeUndefined();
    expect(validateField({ ...field, required: true }, '', {}, t)).toBe('请输入生效时间');
    expect(validateField(field, '2026-12-01', {}, t)).toBe('生效时间不是一个有效的时间');
    expect(validateField(field, '2026-12-01 08:00:00', {}, t)).toBeUndefined();
  });
});

interface Values extends Record<string, unknown> {
  name: string;
  validFrom: string;
  validUntil: string;
}

function WindowDialog({ initial, onSubmit }: { initial: Values; onSubmit: (v: Values) => void }) {
  const validity = useValidityFields<Values>({ from: 'validFrom', until: 'validUntil' });
  const fields: FormItem<Values>[] = [{ name: 'name', label: '名称' }, validity];
  return <FormDialog<Values> open onClose={() => {}} title="授权" fields={fields} initialValues={initial} onSubmit={onSubmit} />;
}

describe('validity window fields', () => {
  it('shows both sides as date-time pickers under 有效期, each optional, and starts from the wire values', async () => {
    const onSubmit = vi.fn();
    renderUi(<WindowDialog initial={{ name: '', validFrom: '2026-12-01 08:00:00', validUntil: '' }} onSubmit={onSubmit} />);
    const dialog = within(await screen.findByRole('dialog', { name: '授权' }));
    expect(dialog.getByRole('group', { name: '有效期' })).toBeInTheDocument();
    // The kit's field, in the wire's order (not the browser's mm/dd/yyyy picker): a date box and a time box.
    const [fromDate, fromTime] = within(dialog.getByRole('group', { name: '生效时间' })).getAllByRole('textbox');
    expect(fromDate).toHaveAttribute('type', 'text');
    expect(fromDate).toHaveValue('2026-12-01');
    expect(fromTime).toHaveValue('08:00:00');
    expect(within(dialog.getByRole('group', { name: '失效时间' })).getAllByRole('textbox').map((box) => (box as HTMLInputElement).value)).toEqual(['', '']);
    expect(dialog.getByText('留空表示长期有效')).toBeInTheDocument();
    fireEvent.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: '', validFrom: '2026-12-01 08:00:00', validUntil: '' }));
  });

  it('refuses an end that is not after the start, and submits wire strings once it is', async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<WindowDialog initial={{ name: '', validFrom: '', validUntil: '' }} onSubmit={onSubmit} />);
    const dialog = within(await screen.findByRole('dialog', { name: '授权' }));
    typeDateTime(dialog, '生效时间', '2026-12-01 08:00:00');
    typeDateTime(dialog, '失效时间', '2026-12-01 08:00:00');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('失效时间必须晚于生效时间')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    typeDateTime(dialog, '失效时间', '2026-12-01 08:00:01');
    await waitFor(() => expect(dialog.queryByText('失效时间必须晚于生效时间')).toBeNull());
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: '', validFrom: '2026-12-01 08:00:00', validUntil: '2026-12-01 08:00:01' }));
  });

  it('lets an end stand alone (open start)', async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<WindowDialog initial={{ name: '', validFrom: '', validUntil: '' }} onSubmit={onSubmit} />);
    const dialog = within(await screen.findByRole('dialog', { name: '授权' }));
    typeDateTime(dialog, '失效时间', '2020-01-01 00:00');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: '', validFrom: '', validUntil: '2020-01-01 00:00:00' }));
  });
});

describe('the kit date-time field', () => {
  it('picks a day on its calendar (the month of the value), keeps the typed time, and says a half-typed moment is invalid', async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<WindowDialog initial={{ name: '', validFrom: '2026-12-01 08:00:00', validUntil: '' }} onSubmit={onSubmit} />);
    const dialog = within(await screen.findByRole('dialog', { name: '授权' }));
    await user.click(dialog.getByRole('button', { name: '在日历中选择生效时间' }));
    const calendar = within(await screen.findByRole('dialog', { name: '生效时间日历' }));
    expect(calendar.getByText('2026年12月')).toBeInTheDocument();
    expect(calendar.getByRole('button', { name: '2026-12-01' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(calendar.getByRole('button', { name: '下个月' }));
    expect(calendar.getByText('2027年1月')).toBeInTheDocument();
    await user.click(calendar.getByRole('button', { name: '2027-01-15' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '生效时间日历' })).toBeNull());
    const [date, time] = within(dialog.getByRole('group', { name: '生效时间' })).getAllByRole('textbox');
    expect(date).toHaveValue('2027-01-15');
    expect(time).toHaveValue('08:00:00');

    typeDateTime(dialog, '失效时间', '2027-02-30 10:00');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('失效时间不是一个有效的时间')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    typeDateTime(dialog, '失效时间', '2027-02-28 10:00');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({ name: '', validFrom: '2027-01-15 08:00:00', validUntil: '2027-02-28 10:00:00' }),
    );
  });

  it('reads in the wire order in English too (not mm/dd/yyyy)', async () => {
    renderUi(<WindowDialog initial={{ name: '', validFrom: '2026-12-01 08:00:00', validUntil: '' }} onSubmit={() => {}} />, {
      lng: 'en-US',
    });
    const dialog = within(await screen.findByRole('dialog', { name: '授权' }));
    const [date, time] = within(dialog.getByRole('group', { name: 'Valid from' })).getAllByRole('textbox');
    expect(date).toHaveValue('2026-12-01');
    expect(date).toHaveAttribute('placeholder', 'YYYY-MM-DD');
    expect(time).toHaveAccessibleName('Valid from (time)');
  });
});

describe('validity text and badge', () => {
  it('words the window and the state, in both languages', () => {
    const view = renderUi(
      <ul>
        <li>
          <ValidityWindow from="2026-01-01 00:00:00" until="2026-02-01 00:00:00" />
        </li>
        <li>
          <ValidityWindow from="2026-01-01 00:00:00" until="" />
        </li>
        <li>
          <ValidityWindow until="2026-02-01 00:00:00" />
        </li>
        <li>
          <ValidityWindow />
        </li>
        <li>
          <ValidityBadge state="active" />
          <ValidityBadge state="pending" />
          <ValidityBadge state="expired" />
        </li>
      </ul>,
    );
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '2026-01-01 00:00:00 ~ 2026-02-01 00:00:00',
      '2026-01-01 00:00:00 起',
      '至 2026-02-01 00:00:00',
      '长期有效',
      '生效中未生效已过期',
    ]);
    view.unmount();
    renderUi(
      <p>
        <ValidityWindow from="2026-01-01 00:00:00" />
        <ValidityBadge state="expired" />
      </p>,
      { lng: 'en-US' },
    );
    expect(screen.getByText('From 2026-01-01 00:00:00')).toBeInTheDocument();
    expect(screen.getByText('Expired')).toBeInTheDocument();
  });
});

describe('AccessExplainDialog', () => {
  const owner: AccessExplanation = { allowed: true, via: 'owner', strategy: null, grants: [] };

  it('loads on open and says why: the owner, no strategy, no grants', async () => {
    const load = vi.fn(async () => owner);
    renderUi(<AccessExplainDialog open onClose={() => {}} queryKey={['explain', 'u1', 'a1']} load={load} />);
    const dialog = within(await screen.findByRole('dialog', { name: '访问原因' }));
    expect(await dialog.findByText('允许访问')).toBeInTheDocument();
    expect(dialog.getByText('该用户是资产的所有者。')).toBeInTheDocument();
    expect(dialog.getByText('未指定授权策略，文件与剪贴板操作不受限制。')).toBeInTheDocument();
    expect(dialog.getByText('没有任何授权涉及该用户和此资产。')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not load while closed, shows a failure, and closes', async () => {
    const load = vi.fn(async (): Promise<AccessExplanation> => {
      throw new Error('资产不存在');
    });
    const onClose = vi.fn();
    const view = renderUi(<AccessExplainDialog open={false} onClose={onClose} queryKey={['explain', 'x']} load={load} />);
    expect(load).not.toHaveBeenCalled();
    view.rerender(<AccessExplainDialog open onClose={onClose} queryKey={['explain', 'x']} load={load} title="为什么" />);
    const dialog = within(await screen.findByRole('dialog', { name: '为什么' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('资产不存在');
    fireEvent.click(dialog.getByRole('button', { name: '关闭' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('says a refusal and lists the grants that do not count', async () => {
    const refused: AccessExplanation = {
      allowed: false,
      via: null,
      strategy: null,
      grants: [
        { id: 'g', kind: 'group', userGroupId: 'g1', userGroupName: '', strategyId: '', strategyName: '', validFrom: '2099-01-01 00:00:00', validUntil: '', state: 'pending', wins: false },
      ],
    };
    renderUi(<AccessExplainDialog open onClose={() => {}} queryKey={['explain', 'r']} load={async () => refused} />);
    const dialog = within(await screen.findByRole('dialog'));
    expect(await dialog.findByText('不允许访问')).toBeInTheDocument();
    expect(dialog.getByText('没有正在生效的授权。')).toBeInTheDocument();
    expect(dialog.queryByRole('heading', { name: '授权策略' })).toBeNull();
    const row = within(dialog.getByRole('table', { name: '相关授权' })).getAllByRole('row')[1];
    expect(row).toHaveTextContent('用户组「g1」');
    expect(row).toHaveTextContent('2099-01-01 00:00:00 起');
    expect(row).toHaveTextContent('未生效');
  });
});

interface Picks extends Record<string, unknown> {
  users: string[];
}

describe('searchable multi-select with disabled options', () => {
  it('lists a disabled option greyed and does not pick it', async () => {
    const onSubmit = vi.fn();
    const fields: FormField<Picks>[] = [
      {
        name: 'users',
        label: '用户',
        type: 'multiselect',
        searchable: true,
        options: [
          { value: 'u1', label: 'Ann', disabled: true },
          { value: 'u2', label: 'Bob' },
        ],
      },
    ];
    const { user } = renderUi(<FormDialog<Picks> open onClose={() => {}} title="选择" fields={fields} initialValues={{ users: [] }} onSubmit={onSubmit} />);
    const dialog = within(await screen.findByRole('dialog', { name: '选择' }));
    const box = dialog.getByRole('combobox', { name: /用户/ });
    await user.click(box);
    expect(await screen.findByRole('option', { name: 'Ann' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('option', { name: 'Ann' }));
    if (!screen.queryByRole('option', { name: 'Bob' })) await user.click(box);
    await user.click(await screen.findByRole('option', { name: 'Bob' }));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ users: ['u2'] }));
  });
});
