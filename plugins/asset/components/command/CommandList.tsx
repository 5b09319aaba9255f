import { useEndpoints, useTranslation } from '@/core';
import { SavedCommands } from '@/domain';
import { useState } from 'react';
import { COMMAND_KEYS, type CommandRow, commandApi } from './api';
import { ChangeOwnerDialog, type OwnedRecord } from '../ChangeOwnerDialog';

/**
 * 动态指令: saved command lines, searchable by name and content, with their owner. Running one on assets needs the
 * terminals of the sessions issue, so this screen offers no 执行 until then.
 */
export function CommandList() {
  const { t } = useTranslation('asset');
  const commands = useEndpoints(commandApi);
  const [ownerOf, setOwnerOf] = useState<OwnedRecord | null>(null);

  return (
    <SavedCommands<CommandRow>
      tableKey="command"
      queryKey={COMMAND_KEYS.list}
      recordKey={COMMAND_KEYS.record}
      api={commands}
      text={(key, values) => t(`command.${key}`, values)}
      gates={{ add: 'command-add', edit: 'command-edit', remove: 'command-del' }}
      extraColumns={[{ key: 'owner', header: t('command.fields.owner'), render: (c) => c.ownerName }]}
      extraRowActions={(c) => [
        { key: 'change-owner', label: t('command.changeOwner.action'), menu: 'command-change-owner', onClick: () => setOwnerOf({ id: c.id, owner: c.owner }) },
      ]}
    >
      {(table) => (
        <ChangeOwnerDialog
          record={ownerOf}
          onClose={() => setOwnerOf(null)}
          change={commands.changeOwner}
          onChanged={() => table.done(t('command.changeOwner.done'))}
        />
      )}
    </SavedCommands>
  );
}
