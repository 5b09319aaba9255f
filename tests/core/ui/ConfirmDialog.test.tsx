import { Button } from '@fluentui/react-components';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useConfirm, useConfirmDelete } from '../../../core/ui';
import { renderUi } from './render';

function Page({ onResult }: { onResult: (ok: boolean) => void }) {
  const confirm = useConfirm();
  const confirmDelete = useConfirmDelete();
  return (
    <>
      <Button
        onClick={async () => onResult(await confirm({ title: '确认注销?', message: '注销后需重新登录', danger: true }))}
      >
        ask
      </Button>
      <Button onClick={async () => onResult(await confirmDelete())}>delete</Button>
    </>
  );
}

describe('useConfirm', () => {
  it('resolves true on 确定', async () => {
    const onResult = vi.fn();
    const { user } = renderUi(<Page onResult={onResult} />);
    await user.click(await screen.findByRole('button', { name: 'ask' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('确认注销?');
    expect(dialog).toHaveTextContent('注销后需重新登录');
    await user.click(await screen.findByRole('button', { name: '确定' }));
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(true));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('resolves false on 取消 and on Escape', async () => {
    const onResult = vi.fn();
    const { user } = renderUi(<Page onResult={onResult} />);
    await user.click(await screen.findByRole('button', { name: 'ask' }));
    await screen.findByRole('alertdialog');
    await user.click(await screen.findByRole('button', { name: '取消' }));
    await waitFor(() => expect(onResult).toHaveBeenLastCalledWith(false));

    await user.click(await screen.findByRole('button', { name: 'ask' }));
    await screen.findByRole('alertdialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(onResult).toHaveBeenCalledTimes(2));
    expect(onResult).toHaveBeenLastCalledWith(false);
  });

  it('offers the standard row-delete confirmation', async () => {
    const onResult = vi.fn();
    const { user } = renderUi(<Page onResult={onResult} />);
    await user.click(await screen.findByRole('button', { name: 'delete' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('您确认要删除此行吗?');
    await user.click(await screen.findByRole('button', { name: '确认' }));
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(true));
  });
});
