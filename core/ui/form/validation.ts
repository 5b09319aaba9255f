import type { UiTranslate } from '../i18n';
import type { FormErrors, FormField, FormValues } from './types';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const SELECT_TYPES = new Set(['select', 'multiselect', 'radio', 'checkbox', 'switch']);

export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'number') return Number.isNaN(value);
  return false;
}

export function isFieldVisible<Values extends FormValues>(field: FormField<Values>, values: Values): boolean {
  return field.visible ? field.visible(values) : true;
}

/**
 * Validates one field (pure). Order: required, type (email / number), length, range, pattern, custom `validate`.
 * Returns the first message, or `undefined` when the value passes. Empty optional values pass.
 */
export function validateField<Values extends FormValues>(
  field: FormField<Values>,
  value: unknown,
  values: Values,
  t: UiTranslate,
): string | undefined {
  const label = field.label;
  const type = field.type ?? 'text';
  if (isEmptyValue(value) || (field.required && (type === 'checkbox' || type === 'switch') && value !== true)) {
    if (field.required) {
      if (field.requiredMessage) return field.requiredMessage;
      return t(SELECT_TYPES.has(type) && !field.render ? 'ui.validation.requiredSelect' : 'ui.validation.required', {
        label,
      });
    }
    return undefined;
  }
  if (type === 'email' && typeof value === 'string' && !EMAIL.test(value.trim())) {
    return field.invalidMessage ?? t('ui.validation.email', { label });
  }
  if (type === 'number') {
    const n = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(n)) return field.invalidMessage ?? t('ui.validation.number', { label });
  }
  if (typeof value === 'string' || Array.isArray(value)) {
    const len = value.length;
    const { minLength, maxLength } = field;
    if (minLength !== undefined && len < minLength) return t('ui.validation.minLength', { label, min: minLength });
    if (maxLength !== undefined && len > maxLength) return t('ui.validation.maxLength', { label, max: maxLength });
  }
  if (field.min !== undefined || field.max !== undefined) {
    const n = typeof value === 'number' ? value : Number(value);
    if (Number.isFinite(n)) {
      const { min, max } = field;
      if (min !== undefined && max !== undefined) {
        if (n < min || n > max) return t('ui.validation.range', { label, min, max });
      } else if (min !== undefined && n < min) {
        return t('ui.validation.min', { label, min });
      } else if (max !== undefined && n > max) {
        return t('ui.validation.max', { label, max });
      }
    }
  }
  if (field.pattern && typeof value === 'string') {
    field.pattern.lastIndex = 0;
    if (!field.pattern.test(value)) return field.patternMessage ?? t('ui.validation.pattern', { label });
  }
  return field.validate?.(value, values);
}

/** Validates every visible field (pure). The result holds only the failing fields. */
export function validateValues<Values extends FormValues>(
  fields: readonly FormField<Values>[],
  values: Values,
  t: UiTranslate,
): FormErrors {
  const errors: FormErrors = {};
  for (const field of fields) {
    if (!isFieldVisible(field, values)) continue;
    const message = validateField(field, values[field.name], values, t);
    if (message) errors[field.name] = message;
  }
  return errors;
}
