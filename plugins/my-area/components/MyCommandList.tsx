import { useEndpoints, useTranslation } from '@/core';
import { SavedCommands } from '@/domain';
import { KEYS, type MyCommandRow, myCommandApi } from '../api';

/**
 * 我的指令: the caller's own saved commands (the server checks every id against the owner), which their terminals
 * offer. Every signed-in account manages its own, so no button needs a key.
 */
export function MyCommandList() {
  const { t } = useTranslation('my-area');
  const commands = useEndpoints(myCommandApi);
  return (
    <SavedCommands<MyCommandRow>
      tableKey="my-command"
      queryKey={KEYS.commands}
      recordKey={KEYS.command}
      api={commands}
      text={(key, values) => t(`command.${key}`, values)}
    />
  );
}
