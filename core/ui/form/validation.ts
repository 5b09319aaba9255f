import { safeParse } from 'zod/v4/core';
import type { $ZodIssue } from 'zod/v4/core';
import type { UiTranslate } from '../i18n';
import { WIRE_DATE_TIME } from './datetime';
import type { FormErrors, FormField, FormItem, FormSection, FormValues } from './types';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const SELECT_TYPES = new Set(['select', 'multiselect', 'radio', 'checkbox', 'switch', 'tags']);

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

export function isSection<Values extends FormValues>(item: FormItem<Values>): item is FormSection<Values> {
  return 'section' in item;
}

/** Every field of a field list, sections opened; a field in a section is visible only while its section is. */
export function flattenFields<Values extends FormValues>(items: readonly FormItem<Values>[]): FormField<Values>[] {
  return items.flatMap((item) => {
    if (!isSection(item)) return [item];
    const { visible } = item;
    if (!visible) return [...item.fields];
    return item.fields.map((field) => ({ ...field, visible: (v: Values) => visible(v) && isFieldVisible(field, v) }));
  });
}

/** Whether the field must have a value, with these values. */
export function isRequired<Values extends FormValues>(field: FormField<Values>, values: Values): boolean {
  return typeof field.required === 'function' ? field.required(values) : field.required === true;
}

/** Whether a secret field (`password`, `textarea`) says a value is stored; `isSet` on any other field means nothing. */
export function hasStoredSecret<Values extends FormValues>(field: FormField<Values>, values: Values): boolean {
  if (field.type !== 'password' && field.type !== 'textarea') return false;
  return typeof field.isSet === 'function' ? field.isSet(values) : field.isSet === true;
}

/** A kept secret: a secret field with a stored value, left empty (it is not submitted). */
export function isKeptSecret<Values extends FormValues>(field: FormField<Values>, value: unknown, values: Values): boolean {
  return hasStoredSecret(field, values) && isEmptyValue(value);
}

/** A zod issue in the kit's generic words (zod uses it only when the rule has no message of its own). */
function genericMessage(issue: $ZodIssue, label: string, t: UiTranslate): string {
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array'
        ? t('ui.validation.minLength', { label, min: Number(issue.minimum) })
        : t('ui.validation.min', { label, min: Number(issue.minimum) });
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array'
        ? t('ui.validation.maxLength', { label, max: Number(issue.maximum) })
        : t('ui.validation.max', { label, max: Number(issue.maximum) });
    case 'invalid_format':
      return t(issue.format === 'email' ? 'ui.validation.email' : 'ui.validation.pattern', { label });
    case 'invalid_type':
      return t(issue.expected === 'number' || issue.expected === 'int' ? 'ui.validation.number' : 'ui.validation.pattern', { label });
    default:
      return t('ui.validation.pattern', { label });
  }
}

/** Checks a field's zod rule: the rule's own message if it has one, else the kit's generic message. */
function checkRule<Values extends FormValues>(field: FormField<Values>, value: unknown, t: UiTranslate): string | undefined {
  if (!field.rule) return undefined;
  const result = safeParse(field.rule, value, { error: (issue) => genericMessage(issue as $ZodIssue, field.label, t) });
  return result.success ? undefined : result.error.issues[0]?.message;
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
  if (isKeptSecret(field, value, values)) return undefined;
  const required = isRequired(field, values);
  if (isEmptyValue(value) || (required && (type === 'checkbox' || type === 'switch') && value !== true)) {
    if (required) {
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
  if (type === 'datetime' && !(typeof value === 'string' && WIRE_DATE_TIME.test(value))) {
    return field.invalidMessage ?? t('ui.validation.datetime', { label });
  }
  if (type === 'number') {
    const n = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(n)) return field.invalidMessage ?? t('ui.validation.number', { label });
  }
  if ((typeof value === 'string' && type !== 'datetime') || Array.isArray(value)) {
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
  return checkRule(field, value, t) ?? field.validate?.(value, values);
}

/** Validates every visible field (pure). The result holds only the failing fields. */
export function validateValues<Values extends FormValues>(
  items: readonly FormItem<Values>[],
  values: Values,
  t: UiTranslate,
): FormErrors {
  const errors: FormErrors = {};
  for (const field of flattenFields(items)) {
    if (!isFieldVisible(field, values)) continue;
    const message = validateField(field, values[field.name], values, t);
    if (message) errors[field.name] = message;
  }
  return errors;
}
