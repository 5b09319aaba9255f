import { FormDialog, type RecordDialog, useEndpoints, useTranslation } from '@/core';
import { COMMAND_KEYS, type CommandBody, commandApi } from './api';

const EMPTY = { name: '', content: '' };

/** 新建动态指令 / 更新动态指令: a name and the lines to send, one command per line. */
export function CommandFormDialog({ dialog, onSaved }: { dialog: RecordDialog; onSaved: () => Promise<void> }) {
  const { t } = useTranslation('asset');
  const commands = useEndpoints(commandApi);
  const { id } = dialog;
  return (
    <FormDialog<typeof EMPTY, CommandBody>
      open={dialog.open}
      onClose={dialog.close}
      title={t(id === undefined ? 'command.dialog.new' : 'command.dialog.edit')}
      initialValues={EMPTY}
      record={id === undefined ? undefined : { queryKey: COMMAND_KEYS.one(id), load: () => commands.get(id) }}
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
        await onSaved();
      }}
    />
  );
}
