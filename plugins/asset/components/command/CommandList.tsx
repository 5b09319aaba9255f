import { CopyText, formatDateTime, PageContainer, ServerTable, useEndpoints, useRecordDialog, useTableActions, useTranslation } from '@/core';
import { useState } from 'react';
import { COMMAND_KEYS, type CommandRow, commandApi } from './api';
import { ChangeOwnerDialog, type OwnedRecord } from '../ChangeOwnerDialog';
import { CommandFormDialog } from './CommandFormDialog';

/**
 * 动态指令: saved command lines, searchable by name and content. Running one on assets needs the terminals of the
 * sessions issue, so this screen offers no 执行 until then.
 */
export function CommandList() {
  const { t } = useTranslation('asset');
  const commands = useEndpoints(commandApi);
  const table = useTableActions(COMMAND_KEYS.list);
  const dialog = useRecordDialog();
  const [ownerOf, setOwnerOf] = useState<OwnedRecord | null>(null);

  return (
    <PageContainer>
      <ServerTable<CommandRow>
        tableKey="command"
        title={t('command.list.title')}
        queryKey={COMMAND_KEYS.list}
        fetchPage={commands.page}
        getRowId={(c) => c.id}
        rowLabel={(c) => t('command.list.select', { name: c.name })}
        searchFields={[
          { name: 'name', label: t('command.fields.name') },
          { name: 'content', label: t('command.fields.content') },
        ]}
        columns={[
          { key: 'name', header: t('command.fields.name'), sortField: 'name', hideable: false, render: (c) => c.name },
          {
            key: 'content',
            header: t('command.fields.content'),
            render: (c) => <CopyText text={c.content} monospace maxWidth={360} copyLabel={t('command.list.copy', { name: c.name })} />,
          },
          { key: 'owner', header: t('command.fields.owner'), render: (c) => c.ownerName },
          { key: 'created', header: t('command.fields.created'), sortField: 'created', render: (c) => formatDateTime(c.created) },
        ]}
        add={{ menu: 'command-add', onClick: dialog.openNew }}
        rowActions={(c) => [
          { key: 'edit', label: t('command.list.edit'), menu: 'command-edit', onClick: () => dialog.openEdit(c.id) },
          {
            key: 'change-owner',
            label: t('command.changeOwner.action'),
            menu: 'command-change-owner',
            onClick: () => setOwnerOf({ id: c.id, owner: c.owner }),
          },
        ]}
        remove={{ menu: 'command-del', run: commands.remove, batch: (rows) => t('command.list.batchDelete', { count: rows.length }) }}
      />
      <CommandFormDialog dialog={dialog} onSaved={() => table.done(t('command.list.saved'))} />
      <ChangeOwnerDialog
        record={ownerOf}
        onClose={() => setOwnerOf(null)}
        change={commands.changeOwner}
        onChanged={() => table.done(t('command.changeOwner.done'))}
      />
    </PageContainer>
  );
}
