import { FormDialog, type FormField, type RecordDialog, useEndpoints, useTranslation } from '@/core';
import { FLAGS, type Flag, KEYS, type StrategyBody, strategyApi } from '../api';

const EMPTY: StrategyBody = {
  name: '',
  upload: false,
  download: false,
  delete: false,
  rename: false,
  edit: false,
  createDir: false,
  copy: false,
  paste: false,
};

/**
 * Editing a file means downloading it first (1.3.9 only says so in a tooltip): switching 编辑 on switches 下载 on,
 * switching 下载 off switches 编辑 off, so a saved strategy never holds the one without the other.
 */
function linkedFlags(flag: Flag): FormField<StrategyBody>['linked'] {
  if (flag === 'edit') return (value) => (value === true ? { download: true } : undefined);
  if (flag === 'download') return (value) => (value === false ? { edit: false } : undefined);
  return undefined;
}

/** 新建授权策略 / 更新授权策略: a name and one switch per flag, all off for a new strategy. */
export function StrategyFormDialog({ dialog, onSaved }: { dialog: RecordDialog; onSaved: () => Promise<void> }) {
  const { t } = useTranslation('strategy');
  const strategies = useEndpoints(strategyApi);
  const { id } = dialog;
  const state = { on: t('state.allowed'), off: t('state.forbidden') };
  // What 复制 / 粘贴 are is not obvious: the clipboard between the user's computer (the browser) and the remote session.
  const hints: Partial<Record<Flag, string>> = { edit: t('hints.edit'), copy: t('hints.copy'), paste: t('hints.paste') };
  const switches: FormField<StrategyBody>[] = FLAGS.map((flag) => ({
    name: flag,
    label: t(`fields.${flag}`),
    type: 'switch',
    stateText: state,
    hint: hints[flag],
    linked: linkedFlags(flag),
  }));
  return (
    <FormDialog<StrategyBody>
      open={dialog.open}
      onClose={dialog.close}
      title={t(id === undefined ? 'dialog.new' : 'dialog.edit')}
      initialValues={EMPTY}
      record={id === undefined ? undefined : { queryKey: KEYS.one(id), load: () => strategies.get(id) }}
      fields={[
        { name: 'name', label: t('fields.name'), required: true, requiredMessage: t('validation.name'), placeholder: t('placeholders.name'), maxLength: 64 },
        ...switches,
      ]}
      onSubmit={async (v) => {
        const body: StrategyBody = { ...v, name: v.name.trim() };
        for (const flag of FLAGS) body[flag] = v[flag] === true;
        await (id === undefined ? strategies.create(body) : strategies.update(id, body));
        await onSaved();
      }}
    />
  );
}
