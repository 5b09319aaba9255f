import type { QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { $ZodType } from 'zod/v4/core';

/** The values of a form: one entry per field name. */
export type FormValues = Record<string, unknown>;

export type FieldType =
  | 'text'
  | 'password'
  | 'email'
  | 'number'
  | 'textarea'
  | 'select'
  | 'multiselect'
  | 'radio'
  | 'checkbox'
  | 'switch'
  | 'tags'
  /** A moment, `YYYY-MM-DD HH:mm:ss` (the wire's format) or '' when unset; edited with the kit's `DateTimeField`. */
  | 'datetime';

export interface FieldOption {
  value: string | number;
  label: string;
  /** Listed but not offered (e.g. a user the asset is already granted to). */
  disabled?: boolean;
}

/** One declarative form field. Labels, hints and messages are already translated by the caller. */
export interface FormField<Values extends FormValues = FormValues> {
  name: keyof Values & string;
  label: string;
  /** Defaults to `text`; ignored when `render` is given. */
  type?: FieldType;
  /** A function reads it from the values, e.g. a stored password that must be typed again once the address changes. */
  required?: boolean | ((values: Values) => boolean);
  /** Replaces the kit's `请输入{label}` / `请选择{label}` when a required field is empty. */
  requiredMessage?: string;
  /** Replaces the kit's message when an `email`, `number` or `datetime` value is malformed. */
  invalidMessage?: string;
  /** For `multiselect`: a type-to-filter picker (selected options shown as removable tags). */
  searchable?: boolean;
  /** Text length limits (characters); `maxLength` also stops typing there (the input's own `maxlength`). */
  minLength?: number;
  maxLength?: number;
  /** Number range (inclusive). */
  min?: number;
  max?: number;
  pattern?: RegExp;
  patternMessage?: string;
  options?: readonly FieldOption[];
  /**
   * For `select` / `multiselect` / `tags`: options fetched from the server while the field is shown (cached by the
   * console's query client under `queryKey`), e.g. the credentials of an asset whose account type is `credential`.
   * For `tags` they are the existing tags offered while typing (their values); any other text is a new tag.
   */
  remoteOptions?: { queryKey: QueryKey; load: () => Promise<readonly FieldOption[]> };
  /**
   * For a secret (`password`, or a `textarea` holding e.g. a private key): one is already stored (an edit). The
   * control says so; left empty it is kept — the field is left out of the submitted values — and `required` only
   * applies to a new secret. A function reads it from the values, e.g. a `passwordSet` flag the edited record carries.
   */
  isSet?: boolean | ((values: Values) => boolean);
  /**
   * For `textarea`: its height in lines, or a range it grows within as the text gets longer (e.g. `{ min: 5, max: 10 }`).
   */
  rows?: number | { min: number; max: number };
  /** For `switch`: the words beside it for each state (e.g. 允许 / 禁止), so the state reads without its colour. */
  stateText?: { on: string; off: string };
  /** For `text` and `textarea`: a fixed-width font (commands, keys, certificates). */
  monospace?: boolean;
  /**
   * Other values to change along with this one (e.g. a protocol's default port): called with the new value and the
   * values before the change; the fields it names are set too (and re-checked if they show a message).
   */
  linked?: (value: unknown, values: Values) => Partial<Values> | undefined;
  /**
   * A zod rule for the value (`z` from `@/core`), checked after the built-in rules. Its failures read as the kit's
   * generic messages (`{label}至少为{min}个字符`…) unless the rule carries its own message.
   */
  rule?: $ZodType;
  placeholder?: string;
  hint?: ReactNode;
  autoComplete?: string;
  disabled?: boolean;
  /** Hidden fields are neither rendered, validated nor submitted (e.g. `(v) => v.type === 'admin'`). */
  visible?: (values: Values) => boolean;
  /** Extra rule; return a message to fail. Runs after the built-in rules pass. */
  validate?: (value: unknown, values: Values) => string | undefined;
  /** Escape hatch for a custom control; the kit still wraps it in a labelled `Field` and validates it. */
  render?: (value: unknown, onChange: (value: unknown) => void, values: Values) => ReactNode;
}

export type FormErrors = Partial<Record<string, string>>;

/** A titled group of fields shown together, e.g. the private-key fields of an asset whose account type is `private-key`. */
export interface FormSection<Values extends FormValues = FormValues> {
  /** Title (a fieldset legend), already translated; '' for an untitled group. */
  section: string;
  /** A hidden section hides all its fields. */
  visible?: (values: Values) => boolean;
  fields: readonly FormField<Values>[];
}

/** What a form's field list holds: fields and sections of fields. */
export type FormItem<Values extends FormValues = FormValues> = FormField<Values> | FormSection<Values>;
