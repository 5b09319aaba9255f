import { CopyText, FormDialog, formatDateTime, PageContainer, ServerTable, useEndpoints, useRecordDialog, useTableActions, useTranslation } from '@/core';
import { KEYS, type MyCommandBody, type MyCommandRow, myCommandApi } from '../api';

const EMPTY: MyCommandBody = { name: '', content: '' };

/**
 * 我的指令: the caller's own saved commands (the server checks every id against the owner), which their terminals
 * offer. Every signed-in account manages its own, so no button needs a key.
 */
export function MyCommandList() {
  const { t } = useTranslation('my-area');
  const commands = useEndpoints(myCommandApi);
  const table = useTableActions(KEYS.commands);
  const dialog = useRecordDialog();
  const { id } = dialog;

  return (
    <PageContainer>
      <ServerTable<MyCommandRow>
        tableKey="my-command"
        title={t('command.title')}
        queryKey={KEYS.commands}
        fetchPage={commands.page}
        getRowId={(c) => c.id}
        rowLabel={(c) => t('command.select', { name: c.name })}
        searchFields={[
          { name: 'name', label: t('command.fields.name') },
          { name: 'content', label: t('command.fields.content') },
        ]}
        columns={[
          { key: 'name', header: t('command.fields.name'), sortField: 'name', hideable: false, render: (c) => c.name },
          {
            key: 'content',
            header: t('command.fields.content'),
            render: (c) => <CopyText text={c.content} monospace maxWidth={360} copyLabel={t('command.copy', { name: c.name })} />,
          },
          { key: 'created', header: t('command.fields.created'), sortField: 'created', render: (c) => formatDateTime(c.created) },
        ]}
        add={{ onClick: dialog.openNew }}
        rowActions={(c) => [{ key: 'edit', label: t('command.edit'), onClick: () => dialog.openEdit(c.id) }]}
        remove={{ run: commands.remove, batch: (rows) => t('command.batchDelete', { count: rows.length }) }}
      />
      <FormDialog<MyCommandBody>
        open={dialog.open}
        onClose={dialog.close}
        title={t(id === undefined ? 'command.dialog.new' : 'command.dialog.edit')}
        initialValues={EMPTY}
        record={id === undefined ? undefined : { queryKey: KEYS.command(id), load: () => commands.get(id) }}
        width={640}
        fields={[
          { name: 'name', label: t('command.fields.name'), required: true, requiredMessage: t('command.validation.name'), maxLength: 128 },
          {
            name: 'content',
            label: t('command.fields.content'),
            type: 'textarea',
            required: true,
            requiredMessage: t('command.validation.content'),
            placeholder: t('command.placeholders.content'),
            rows: { min: 5, max: 10 },
            monospace: true,
          },
        ]}
        onSubmit={async (v) => {
          // The content goes as typed: leading spaces and blank lines may matter to the terminal.
          const body = { name: v.name.trim(), content: v.content };
          await (id === undefined ? commands.create(body) : commands.update(id, body));
          await table.done(t('command.saved'));
        }}
      />
    </PageContainer>
  );
}
