import {
  makeStyles,
  Tag,
  TagPicker,
  TagPickerControl,
  TagPickerGroup,
  TagPickerInput,
  TagPickerList,
  TagPickerOption,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';
import { useUiT } from '../i18n';
import type { FieldOption } from './types';

const useStyles = makeStyles({
  disabled: { color: tokens.colorNeutralForegroundDisabled, cursor: 'not-allowed' },
});

// Value of the placeholder row shown when the filter matches nothing; never reported as a selection.
const NO_MATCH = '\u0000no-match';

export interface SearchableMultiSelectProps {
  options: readonly FieldOption[];
  value: readonly (string | number)[];
  onChange: (value: (string | number)[]) => void;
  onBlur?: () => void;
  placeholder?: string;
  disabled?: boolean;
}

/** A multi-select whose typed text filters the options (case-insensitive, anywhere in the label); picks show as tags. */
export function SearchableMultiSelect({ options, value, onChange, onBlur, placeholder, disabled }: SearchableMultiSelectProps) {
  const t = useUiT();
  const styles = useStyles();
  const [query, setQuery] = useState('');
  const selected = value.map(String);
  const labelOf = (key: string) => options.find((o) => String(o.value) === key)?.label ?? key;
  const needle = query.trim().toLowerCase();
  const unpickable = new Set(options.filter((o) => o.disabled).map((o) => String(o.value)));
  // Disabled options stay listed (greyed, not pickable), so the user sees why one cannot be picked.
  const shown = options.filter((o) => !selected.includes(String(o.value)) && (needle === '' || o.label.toLowerCase().includes(needle)));

  return (
    <TagPicker
      disabled={disabled}
      selectedOptions={selected}
      onOptionSelect={(_, data) => {
        if (data.value === NO_MATCH || unpickable.has(data.value)) return;
        const keys = data.selectedOptions.filter((k) => k !== NO_MATCH && !unpickable.has(k));
        // Keep the caller's value types (numbers stay numbers).
        onChange(keys.map((k) => options.find((o) => String(o.value) === k)?.value ?? k));
        setQuery('');
      }}
    >
      <TagPickerControl>
        <TagPickerGroup aria-label={t('ui.selectedItems')}>
          {selected.map((key) => (
            <Tag key={key} shape="rounded" value={key} dismissible dismissIcon={{ 'aria-label': t('ui.removeItem') }}>
              {labelOf(key)}
            </Tag>
          ))}
        </TagPickerGroup>
        <TagPickerInput
          value={query}
          placeholder={selected.length === 0 ? (placeholder ?? t('ui.searchPlaceholder')) : undefined}
          onChange={(e) => setQuery(e.target.value)}
          onBlur={() => {
            setQuery('');
            onBlur?.();
          }}
        />
      </TagPickerControl>
      <TagPickerList>
        {shown.length > 0 ? (
          shown.map((o) => (
            // Fluent's TagPickerOption has no `disabled`: a disabled one is marked for assistive tech, greyed, and ignored
            // when picked (onOptionSelect).
            <TagPickerOption
              key={String(o.value)}
              value={String(o.value)}
              text={o.label}
              aria-disabled={o.disabled || undefined}
              className={o.disabled ? styles.disabled : undefined}
            >
              {o.label}
            </TagPickerOption>
          ))
        ) : (
          <TagPickerOption value={NO_MATCH} text="">
            {t('ui.noMatch')}
          </TagPickerOption>
        )}
      </TagPickerList>
    </TagPicker>
  );
}
