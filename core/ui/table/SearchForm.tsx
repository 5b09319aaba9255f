import {
  Button,
  Dropdown,
  Field,
  Input,
  makeStyles,
  Option,
  Radio,
  RadioGroup,
  Select,
  tokens,
} from '@fluentui/react-components';
import type { ReactElement } from 'react';
import { useQuery } from '../../query/hooks';
import { useUiT } from '../i18n';
import type { SearchField, SearchFieldOption } from './types';

/** The longest text a search field takes. */
const SEARCH_MAX_LENGTH = 64;

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

const NO_OPTIONS: readonly SearchFieldOption[] = [];

/** A search field's options: its own, or (`remoteOptions`) fetched while the form shows. */
function useSearchOptions(field: SearchField): readonly SearchFieldOption[] {
  const remote = field.remoteOptions;
  const query = useQuery({
    queryKey: remote?.queryKey ?? ['core', 'no-options'],
    queryFn: () => remote?.load() ?? Promise.resolve(NO_OPTIONS),
    enabled: remote !== undefined,
  });
  return remote ? (query.data ?? NO_OPTIONS) : (field.options ?? NO_OPTIONS);
}

/** The values of a `multiselect` search field, held as one comma string. */
function splitValue(value: string): string[] {
  return value === '' ? [] : value.split(',');
}

/** The fields' reset values, or (`first`) the values they show first: `initialValue` wins there. */
export function initialSearchValues(fields: readonly SearchField[], first = false): SearchValues {
  const out: SearchValues = {};
  for (const f of fields) out[f.name] = (first ? f.initialValue : undefined) ?? f.defaultValue ?? '';
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
      {fields.map((f) => (
        <Field key={f.name} label={f.label} className={styles.field}>
          <SearchControl field={f} value={values[f.name] ?? ''} onChange={(value) => set(f.name, value)} />
        </Field>
      ))}
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

function SearchControl({ field: f, value, onChange }: { field: SearchField; value: string; onChange: (value: string) => void }) {
  const t = useUiT();
  const options = useSearchOptions(f);
  const allowAll = f.allowAll !== false;
  let control: ReactElement;
  if (f.type === 'select') {
    control = (
      <Select value={value} onChange={(_, d) => onChange(d.value)}>
        {allowAll ? <option value="">{t('ui.all')}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    );
  } else if (f.type === 'multiselect') {
    const selected = splitValue(value);
    control = (
      <Dropdown
        multiselect
        placeholder={f.placeholder ?? t('ui.all')}
        selectedOptions={selected}
        value={options
          .filter((o) => selected.includes(o.value))
          .map((o) => o.label)
          .join(', ')}
        onOptionSelect={(_, d) => onChange(d.selectedOptions.join(','))}
      >
        {options.map((o) => (
          <Option key={o.value} value={o.value}>
            {o.label}
          </Option>
        ))}
      </Dropdown>
    );
  } else if (f.type === 'radio') {
    control = (
      <RadioGroup layout="horizontal" value={value} onChange={(_, d) => onChange(d.value)}>
        {allowAll ? <Radio value="" label={t('ui.all')} /> : null}
        {options.map((o) => (
          <Radio key={o.value} value={o.value} label={o.label} />
        ))}
      </RadioGroup>
    );
  } else {
    // The server caps every text filter at 64 characters or more: no typed search can be refused for its length.
    control = <Input value={value} maxLength={SEARCH_MAX_LENGTH} placeholder={f.placeholder} onChange={(_, d) => onChange(d.value)} />;
  }
  return control;
}
