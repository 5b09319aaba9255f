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
import { useUiT } from '../i18n';
import { SearchableMultiSelect } from './SearchableMultiSelect';
import type { FormField, FormValues } from './types';
import type { FormState } from './useFormState';
import { isFieldVisible } from './validation';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
});

export interface FormFieldsProps<Values extends FormValues> {
  form: FormState<Values>;
  fields: readonly FormField<Values>[];
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

/** Renders the visible fields of a form, each in a labelled Fluent `Field` carrying its validation message. */
export function FormFields<Values extends FormValues>({ form, fields, disabled, className }: FormFieldsProps<Values>) {
  const styles = useStyles();
  const t = useUiT();
  const { values, errors, setValue, validateOne } = form;

  const control = (field: FormField<Values>): ReactNode => {
    const value = values[field.name];
    const isDisabled = disabled || field.disabled;
    const onChange = (v: unknown) => setValue(field.name, v);
    const onBlur = () => validateOne(field.name);
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
            placeholder={field.placeholder}
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
      case 'textarea':
        return (
          <Textarea
            name={field.name}
            value={toText(value)}
            placeholder={field.placeholder}
            disabled={isDisabled}
            resize="vertical"
            onChange={(_, d) => onChange(d.value)}
            onBlur={onBlur}
          />
        );
      case 'select': {
        const options = field.options ?? [];
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
            <option value="">{field.placeholder ?? t('ui.selectPlaceholder')}</option>
            {options.map((o) => (
              <option key={optionKey(o.value)} value={optionKey(o.value)} disabled={o.disabled}>
                {o.label}
              </option>
            ))}
          </Select>
        );
      }
      case 'multiselect': {
        const options = field.options ?? [];
        if (field.searchable) {
          return (
            <SearchableMultiSelect
              options={options}
              value={Array.isArray(value) ? (value as (string | number)[]) : []}
              onChange={onChange}
              onBlur={onBlur}
              placeholder={field.placeholder}
              disabled={isDisabled}
            />
          );
        }
        const selected = Array.isArray(value) ? (value as unknown[]).map((v) => String(v)) : [];
        const labels = options.filter((o) => selected.includes(optionKey(o.value))).map((o) => o.label);
        return (
          <Dropdown
            multiselect
            placeholder={field.placeholder ?? t('ui.selectPlaceholder')}
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
      case 'radio': {
        const options = field.options ?? [];
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
            disabled={isDisabled}
            onChange={(_, d) => onChange(d.checked)}
            onBlur={onBlur}
          />
        );
    }
  };

  return (
    <div className={className ?? styles.root}>
      {fields
        .filter((field) => isFieldVisible(field, values))
        .map((field) => {
          const error = errors[field.name];
          return (
            <Field
              key={field.name}
              label={field.label}
              required={field.required}
              hint={field.hint === undefined ? undefined : <span>{field.hint}</span>}
              validationState={error ? 'error' : 'none'}
              validationMessage={error}
            >
              {control(field)}
            </Field>
          );
        })}
    </div>
  );
}
