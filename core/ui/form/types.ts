import type { ReactNode } from 'react';

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
  | 'switch';

export interface FieldOption {
  value: string | number;
  label: string;
  disabled?: boolean;
}

/** One declarative form field. Labels, hints and messages are already translated by the caller. */
export interface FormField<Values extends FormValues = FormValues> {
  name: keyof Values & string;
  label: string;
  /** Defaults to `text`; ignored when `render` is given. */
  type?: FieldType;
  required?: boolean;
  /** Replaces the kit's `请输入{label}` / `请选择{label}` when a required field is empty. */
  requiredMessage?: string;
  /** Replaces the kit's message when an `email` or `number` value is malformed. */
  invalidMessage?: string;
  /** For `multiselect`: a type-to-filter picker (selected options shown as removable tags). */
  searchable?: boolean;
  /** Text length limits (characters). */
  minLength?: number;
  maxLength?: number;
  /** Number range (inclusive). */
  min?: number;
  max?: number;
  pattern?: RegExp;
  patternMessage?: string;
  options?: readonly FieldOption[];
  placeholder?: string;
  hint?: ReactNode;
  autoComplete?: string;
  disabled?: boolean;
  /** Hidden fields are neither rendered nor validated. */
  visible?: (values: Values) => boolean;
  /** Extra rule; return a message to fail. Runs after the built-in rules pass. */
  validate?: (value: unknown, values: Values) => string | undefined;
  /** Escape hatch for a custom control; the kit still wraps it in a labelled `Field` and validates it. */
  render?: (value: unknown, onChange: (value: unknown) => void, values: Values) => ReactNode;
}

export type FormErrors = Partial<Record<string, string>>;
