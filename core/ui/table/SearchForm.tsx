import {
  Button,
  Field,
  Input,
  makeStyles,
  Radio,
  RadioGroup,
  Select,
  tokens,
} from '@fluentui/react-components';
import type { ReactElement } from 'react';
import { useUiT } from '../i18n';
import type { SearchField } from './types';

const useStyles = makeStyles({
  form: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-end',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalM,
    padding: tokens.spacingVerticalL,
    marginBottom: tokens.spacingVerticalL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
  },
  field: { minWidth: '200px' },
  buttons: { display: 'flex', columnGap: tokens.spacingHorizontalS, marginLeft: 'auto' },
});

export type SearchValues = Record<string, string>;

export function initialSearchValues(fields: readonly SearchField[]): SearchValues {
  const out: SearchValues = {};
  for (const f of fields) out[f.name] = f.defaultValue ?? '';
  return out;
}

export interface SearchFormProps {
  fields: readonly SearchField[];
  values: SearchValues;
  onChange: (values: SearchValues) => void;
  onSubmit: () => void;
  onReset: () => void;
}

/** The query form above a ServerTable: labelled fields, 查询 (also Enter) and 重置. */
export function SearchForm({ fields, values, onChange, onSubmit, onReset }: SearchFormProps) {
  const styles = useStyles();
  const t = useUiT();
  const set = (name: string, value: string) => onChange({ ...values, [name]: value });
  return (
    <form
      className={styles.form}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {fields.map((f) => {
        const value = values[f.name] ?? '';
        const allowAll = f.allowAll !== false;
        let control: ReactElement;
        if (f.type === 'select') {
          control = (
            <Select value={value} onChange={(_, d) => set(f.name, d.value)}>
              {allowAll ? <option value="">{t('ui.all')}</option> : null}
              {(f.options ?? []).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
          );
        } else if (f.type === 'radio') {
          control = (
            <RadioGroup layout="horizontal" value={value} onChange={(_, d) => set(f.name, d.value)}>
              {allowAll ? <Radio value="" label={t('ui.all')} /> : null}
              {(f.options ?? []).map((o) => (
                <Radio key={o.value} value={o.value} label={o.label} />
              ))}
            </RadioGroup>
          );
        } else {
          control = (
            <Input value={value} placeholder={f.placeholder} onChange={(_, d) => set(f.name, d.value)} />
          );
        }
        return (
          <Field key={f.name} label={f.label} className={styles.field}>
            {control}
          </Field>
        );
      })}
      <div className={styles.buttons}>
        <Button type="button" onClick={onReset}>
          {t('ui.reset')}
        </Button>
        <Button type="submit" appearance="primary">
          {t('ui.search')}
        </Button>
      </div>
    </form>
  );
}
