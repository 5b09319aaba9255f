import {
  Tag,
  TagPicker,
  TagPickerControl,
  TagPickerGroup,
  TagPickerInput,
  TagPickerList,
  TagPickerOption,
} from '@fluentui/react-components';
import { useState } from 'react';
import { useUiT } from '../i18n';

// Value of the placeholder row shown when there is nothing to offer; never reported as a tag.
const NOTHING = '\u0000nothing';

export interface TagInputProps {
  /** The tags, in the order they were added. */
  value: readonly string[];
  onChange: (value: string[]) => void;
  /** Existing tags offered while typing (a tag may also be any new text). */
  suggestions?: readonly string[];
  onBlur?: () => void;
  placeholder?: string;
  disabled?: boolean;
}

/**
 * Free tag entry (antd's `Select mode="tags"`): type a tag and press Enter, or pick one of the existing tags the typed
 * text matches; each tag is a removable chip. Blanks are ignored, a tag is held once.
 */
export function TagInput({ value, onChange, suggestions = [], onBlur, placeholder, disabled }: TagInputProps) {
  const t = useUiT();
  const [query, setQuery] = useState('');
  const typed = query.trim();
  const needle = typed.toLowerCase();
  const offered = suggestions.filter((s) => !value.includes(s) && (needle === '' || s.toLowerCase().includes(needle)));
  // The typed text itself comes first, so Enter (which takes the first option starting with the text) adds it.
  const isNew = typed !== '' && !value.includes(typed) && !suggestions.includes(typed);

  return (
    <TagPicker
      disabled={disabled}
      selectedOptions={[...value]}
      onOptionSelect={(_, data) => {
        setQuery('');
        if (data.value === NOTHING) return;
        const next = data.selectedOptions.map((tag) => tag.trim()).filter((tag) => tag !== '' && tag !== NOTHING);
        onChange([...new Set(next)]);
      }}
    >
      <TagPickerControl>
        <TagPickerGroup aria-label={t('ui.selectedItems')}>
          {value.map((tag) => (
            <Tag key={tag} shape="rounded" value={tag} dismissible dismissIcon={{ 'aria-label': t('ui.removeItem') }}>
              {tag}
            </Tag>
          ))}
        </TagPickerGroup>
        <TagPickerInput
          value={query}
          placeholder={value.length === 0 ? (placeholder ?? t('ui.tags.placeholder')) : undefined}
          onChange={(e) => setQuery(e.target.value)}
          onBlur={() => {
            setQuery('');
            onBlur?.();
          }}
        />
      </TagPickerControl>
      <TagPickerList>
        {isNew ? (
          <TagPickerOption value={typed} text={typed}>
            {t('ui.tags.add', { tag: typed })}
          </TagPickerOption>
        ) : null}
        {offered.map((tag) => (
          <TagPickerOption key={tag} value={tag} text={tag}>
            {tag}
          </TagPickerOption>
        ))}
        {!isNew && offered.length === 0 ? (
          <TagPickerOption value={NOTHING} text="">
            {t(typed === '' ? 'ui.tags.typeToAdd' : 'ui.noMatch')}
          </TagPickerOption>
        ) : null}
      </TagPickerList>
    </TagPicker>
  );
}
