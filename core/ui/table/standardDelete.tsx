import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import type { QueryKey } from '@tanstack/react-query';
import { useTableActions } from '../crud';
import { useUiT } from '../i18n';
import type { RowAction } from './RowActions';
import type { BatchAction, RemoveAction, RowId } from './types';

/** The row and batch 删除 of a table's `remove`: confirm, delete, toast 删除成功, reload. */
export function useStandardDelete<Row>(
  remove: RemoveAction<Row> | undefined,
  queryKey: QueryKey,
  getRowId: (row: Row) => RowId,
): { row?: (row: Row) => RowAction; batch?: BatchAction<Row> } {
  const t = useUiT();
  const table = useTableActions(queryKey);
  if (!remove) return {};
  const { menu, run, batch: batchTitle, disabled } = remove;
  const removeRows = (ids: RowId[]) => table.run(() => run(ids), t('ui.deleted'));
  const label = t('ui.delete');
  return {
    row: (row) => ({
      key: 'core:delete',
      label,
      menu,
      danger: true,
      confirm: true,
      disabled: disabled?.(row),
      onClick: () => removeRows([getRowId(row)]),
    }),
    batch: batchTitle
      ? {
          key: 'core:delete',
          label,
          icon: <DeleteRegular />,
          danger: true,
          menu,
          confirm: batchTitle === true ? true : (rows) => ({ title: batchTitle(rows) }),
          // A row that may not be deleted (one's own account, a built-in record) is left out of the batch too.
          appliesTo: disabled ? (row) => !disabled(row) : undefined,
          onClick: removeRows,
        }
      : undefined,
  };
}
