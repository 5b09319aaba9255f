import {
  Checkbox,
  Dropdown,
  Field,
  Input,
  makeStyles,
  Option,
  Radio,
  RadioGroup,
  Select,
  Switch,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useQuery } from '../../query/hooks';
import { useUiT } from '../i18n';
import { DateTimeField } from './DateTimeField';
import { SearchableMultiSelect } from './SearchableMultiSelect';
import { TagInput } from './TagInput';
import type { FieldOption, FormField, FormItem, FormValues } from './types';
import type { FormState } from './useFormState';
import { hasStoredSecret, isRequired, isSection } from './validation';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  section: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
    margin: 0,
    padding: `${tokens.spacingVerticalS} 0 0`,
    border: 'none',
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  legend: { padding: `0 ${tokens.spacingHorizontalS} 0 0`, fontWeight: tokens.fontWeightSemibold },
  mono: { fontFamily: tokens.fontFamilyMonospace },
});

const NO_OPTIONS: readonly FieldOption[] = [];

/** A field's options: its own, or (`remoteOptions`) fetched while it is shown. */
function useFieldOptions<Values extends FormValues>(field: FormField<Values>) {
  const remote = field.remoteOptions;
  const query = useQuery({
    queryKey: remote?.queryKey ?? ['core', 'no-options'],
    queryFn: () => remote?.load() ?? Promise.resolve(NO_OPTIONS),
    enabled: remote !== undefined,
  });
  if (!remote) return { options: field.options ?? NO_OPTIONS, loading: false, error: undefined };
  const error = query.error instanceof Error ? query.error.message : query.error ? String(query.error) : undefined;
  return { options: query.data ?? NO_OPTIONS, loading: query.isPending, error };
}

export interface FormFieldsProps<Values extends FormValues> {
  form: FormState<Values>;
  /** Fields and sections; hidden ones (`visible`) are not rendered. */
  fields: readonly FormItem<Values>[];
  /** Disables every control (e.g. while submitting). */
  disabled?: boolean;
  className?: string;
}

function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return String(value);
}

function optionKey(value: string | number): string {
  return String(value);
}

/** A textarea's height: fixed, or its line count kept within the range. */
function textareaRows(rows: FormField['rows'], text: string): number | undefined {
  if (rows === undefined || typeof rows === 'number') return rows;
  const lines = text === '' ? 1 : text.split('\n').length;
  return Math.min(rows.max, Math.max(rows.min, lines));
}

/** Renders the visible fields and sections of a form, each field in a labelled Fluent `Field` carrying its message. */
export function FormFields<Values extends FormValues>({ form, fields, disabled, className }: FormFieldsProps<Values>) {
  const styles = useStyles();
  const render = (items: readonly FormItem<Values>[]): ReactNode =>
    items
      .filter((item) => !item.visible || item.visible(form.values))
      .map((item) =>
        isSection(item) ? (
          <fieldset key={`section:${item.section}:${item.fields[0]?.name ?? ''}`} className={styles.section}>
            {item.section ? <legend className={styles.legend}>{item.section}</legend> : null}
            {render(item.fields)}
          </fieldset>
        ) : (
          <FieldRow key={item.name} form={form} field={item} disabled={disabled} />
        ),
      );
  return <div className={className ?? styles.root}>{render(fields)}</div>;
}

function FieldRow<Values extends FormValues>({
  form,
  field,
  disabled,
}: {
  form: FormState<Values>;
  field: FormField<Values>;
  disabled?: boolean;
}) {
  const t = useUiT();
  const styles = useStyles();
  const { values, errors, setValue, validateOne } = form;
  const { options, loading, error: optionsError } = useFieldOptions(field);
  const value = values[field.name];
  // Not disabled while its options load: a disabled first field would lose the dialog's first focus to the next one
  // (the grant dialog opened on its dates); it says 加载中… instead until they arrive.
  const isDisabled = disabled || field.disabled;
  const choose = loading ? t('ui.loading') : (field.placeholder ?? t('ui.selectPlaceholder'));
  const onChange = (v: unknown) => {
    const linked = field.linked?.(v, values);
    setValue(field.name, v);
    if (linked) for (const [name, next] of Object.entries(linked)) setValue(name, next);
  };
  const onBlur = () => validateOne(field.name);
  const keepsSecret = hasStoredSecret(field, values);
  const mono = field.monospace ? styles.mono : undefined;

  const control = (): ReactNode => {
    if (field.render) return field.render(value, onChange, values);
    const type = field.type ?? 'text';
    switch (type) {
      case 'text':
      case 'password':
      case 'email':
        return (
          <Input
            type={type}
            name={field.name}
            value={toText(value)}
            placeholder={keepsSecret ? t('ui.secret.keep') : field.placeholder}
            input={{ className: mono }}
            // The server's limit, as the browser's own stop: typing or pasting goes no further.
            maxLength={field.maxLength}
            autoComplete={field.autoComplete}
            disabled={isDisabled}
            onChange={(_, d) => onChange(d.value)}
            onBlur={onBlur}
          />
        );
      case 'number':
        return (
          <Input
            type="number"
            name={field.name}
            value={toText(value)}
            placeholder={field.placeholder}
            min={field.min}
            max={field.max}
            disabled={isDisabled}
            onChange={(_, d) => onChange(d.value === '' ? undefined : Number(d.value))}
            onBlur={onBlur}
          />
        );
      case 'datetime':
        return (
          <DateTimeField
            name={field.name}
            label={field.label}
            value={typeof value === 'string' ? value : ''}
            disabled={isDisabled}
            onChange={onChange}
            onBlur={onBlur}
          />
        );
      case 'textarea':
        return (
          <Textarea
            name={field.name}
            value={toText(value)}
            placeholder={keepsSecret ? t('ui.secret.keep') : field.placeholder}
            rows={textareaRows(field.rows, toText(value))}
            textarea={{ className: mono }}
            maxLength={field.maxLength}
            autoComplete={field.autoComplete}
            disabled={isDisabled}
            resize="vertical"
            onChange={(_, d) => onChange(d.value)}
            onBlur={onBlur}
          />
        );
      case 'select': {
        return (
          <Select
            name={field.name}
            value={toText(value)}
            disabled={isDisabled}
            onChange={(_, d) => {
              const picked = options.find((o) => optionKey(o.value) === d.value);
              onChange(picked ? picked.value : undefined);
            }}
            onBlur={onBlur}
          >
            <option value="">{choose}</option>
            {options.map((o) => (
              <option key={optionKey(o.value)} value={optionKey(o.value)} disabled={o.disabled}>
                {o.label}
              </option>
            ))}
          </Select>
        );
      }
      case 'multiselect': {
        if (field.searchable) {
          return (
            <SearchableMultiSelect
              options={options}
              value={Array.isArray(value) ? (value as (string | number)[]) : []}
              onChange={onChange}
              onBlur={onBlur}
              placeholder={loading ? t('ui.loading') : field.placeholder}
              disabled={isDisabled}
            />
          );
        }
        const selected = Array.isArray(value) ? (value as unknown[]).map((v) => String(v)) : [];
        const labels = options.filter((o) => selected.includes(optionKey(o.value))).map((o) => o.label);
        return (
          <Dropdown
            multiselect
            placeholder={choose}
            selectedOptions={selected}
            value={labels.join(', ')}
            disabled={isDisabled}
            onOptionSelect={(_, d) => {
              const keys = d.selectedOptions;
              onChange(options.filter((o) => keys.includes(optionKey(o.value))).map((o) => o.value));
            }}
            onBlur={onBlur}
          >
            {options.map((o) => (
              <Option key={optionKey(o.value)} value={optionKey(o.value)} disabled={o.disabled}>
                {o.label}
              </Option>
            ))}
          </Dropdown>
        );
      }
      case 'tags':
        return (
          <TagInput
            value={Array.isArray(value) ? (value as unknown[]).map(String) : []}
            onChange={onChange}
            onBlur={onBlur}
            suggestions={options.map((o) => String(o.value))}
            placeholder={field.placeholder}
            disabled={isDisabled}
          />
        );
      case 'radio': {
        return (
          <RadioGroup
            name={field.name}
            layout="horizontal"
            value={toText(value)}
            disabled={isDisabled}
            onChange={(_, d) => {
              const picked = options.find((o) => optionKey(o.value) === d.value);
              onChange(picked ? picked.value : d.value);
            }}
            onBlur={onBlur}
          >
            {options.map((o) => (
              <Radio key={optionKey(o.value)} value={optionKey(o.value)} label={o.label} disabled={o.disabled} />
            ))}
          </RadioGroup>
        );
      }
      case 'checkbox':
        return (
          <Checkbox
            name={field.name}
            checked={value === true}
            disabled={isDisabled}
            onChange={(_, d) => onChange(d.checked === true)}
            onBlur={onBlur}
          />
        );
      case 'switch':
        return (
          <Switch
            name={field.name}
            checked={value === true}
            // The state in words, clickable like the switch; hidden from the accessible name (the field's label),
            // since a screen reader already says whether a switch is on.
            label={field.stateText ? { children: value === true ? field.stateText.on : field.stateText.off, 'aria-hidden': true } : undefined}
            disabled={isDisabled}
            onChange={(_, d) => onChange(d.checked)}
            onBlur={onBlur}
          />
        );
    }
  };

  const error = errors[field.name] ?? (optionsError ? t('ui.optionsFailed', { message: optionsError }) : undefined);
  const hint = field.hint ?? (keepsSecret ? t('ui.secret.isSet') : undefined);
  return (
    <Field
      label={field.label}
      required={isRequired(field, values) && !keepsSecret}
      hint={hint === undefined ? undefined : <span>{hint}</span>}
      validationState={error ? 'error' : 'none'}
      validationMessage={error}
    >
      {control()}
    </Field>
  );
}
