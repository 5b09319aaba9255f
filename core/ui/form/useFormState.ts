import { useCallback, useMemo, useRef, useState } from 'react';
import { useUiT } from '../i18n';
import type { FormErrors, FormField, FormItem, FormValues } from './types';
import { flattenFields, isFieldVisible, isKeptSecret, validateField, validateValues } from './validation';

export interface FormState<Values extends FormValues> {
  values: Values;
  errors: FormErrors;
  /**
   * Sets one value and marks the field changed; re-checks the field's message while one is shown (so it goes once
   * fixed).
   */
  setValue: (name: keyof Values & string, value: unknown) => void;
  setValues: (values: Values) => void;
  /**
   * Validates one field (call on blur) once it was changed or shows a message: a field merely passed through is not
   * flagged (the message would push the form down under the pointer, losing the click that left the field).
   */
  validateOne: (name: keyof Values & string) => void;
  /** Shows a message on a field (e.g. the server refused its value); cleared like any other once the value changes. */
  setError: (name: keyof Values & string, message: string) => void;
  /** Validates every visible field, shows the messages, and returns whether the form is valid. */
  validate: () => boolean;
  /** Back to the initial values, no errors. */
  reset: () => void;
  /** The current values without the hidden (`visible() === false`) fields and the kept (empty, already set) secrets. */
  visibleValues: () => Values;
}

/** The field shown under this name (a name may appear in several sections), else its first field. */
function fieldOf<Values extends FormValues>(fields: readonly FormField<Values>[], name: string, values: Values) {
  return fields.find((f) => f.name === name && isFieldVisible(f, values)) ?? fields.find((f) => f.name === name);
}

/** Form state + validation for the declarative fields; pair it with `<FormFields form={…} fields={…}>`. */
export function useFormState<Values extends FormValues>(
  items: readonly FormItem<Values>[],
  initialValues: Values,
): FormState<Values> {
  const t = useUiT();
  const initial = useRef(initialValues);
  const [values, setValuesState] = useState<Values>(initialValues);
  const [errors, setErrors] = useState<FormErrors>({});
  const errorsRef = useRef(errors);
  errorsRef.current = errors;
  // The fields the user changed since the form was (re)built.
  const dirty = useRef(new Set<string>());
  const valuesRef = useRef(values);
  valuesRef.current = values;
  const fields = useMemo(() => flattenFields(items), [items]);
  const fieldsRef = useRef(fields);
  fieldsRef.current = fields;
  const tRef = useRef(t);
  tRef.current = t;

  const setValue = useCallback((name: keyof Values & string, value: unknown) => {
    const next = { ...valuesRef.current, [name]: value } as Values;
    valuesRef.current = next;
    setValuesState(next);
    dirty.current.add(name);
    setErrors((prev) => {
      if (!prev[name]) return prev;
      const field = fieldOf(fieldsRef.current, name, valuesRef.current);
      const message = field ? validateField(field, value, next, tRef.current) : undefined;
      return { ...prev, [name]: message };
    });
  }, []);

  const setValues = useCallback((next: Values) => {
    valuesRef.current = next;
    setValuesState(next);
  }, []);

  const validateOne = useCallback((name: keyof Values & string) => {
    const field = fieldOf(fieldsRef.current, name, valuesRef.current);
    if (!field || (!dirty.current.has(name) && !errorsRef.current[name])) return;
    const current = valuesRef.current;
    const message = isFieldVisible(field, current)
      ? validateField(field, current[name], current, tRef.current)
      : undefined;
    setErrors((prev) => (prev[name] === message ? prev : { ...prev, [name]: message }));
  }, []);

  const setError = useCallback((name: keyof Values & string, message: string) => {
    setErrors((prev) => ({ ...prev, [name]: message }));
  }, []);

  const validate = useCallback(() => {
    const next = validateValues(fieldsRef.current, valuesRef.current, tRef.current);
    setErrors(next);
    return Object.keys(next).length === 0;
  }, []);

  const reset = useCallback(() => {
    valuesRef.current = initial.current;
    setValuesState(initial.current);
    dirty.current.clear();
    setErrors({});
  }, []);

  const visibleValues = useCallback(() => {
    const current = valuesRef.current;
    const out: FormValues = { ...current };
    // A name may appear in several sections (an asset's `username` for a password and for a private key): it stays
    // when any of its fields is shown.
    const shown = new Set(fieldsRef.current.filter((f) => isFieldVisible(f, current)).map((f) => f.name));
    for (const field of fieldsRef.current) {
      const kept = isFieldVisible(field, current) && isKeptSecret(field, current[field.name], current);
      if (!shown.has(field.name) || kept) delete out[field.name];
    }
    return out as Values;
  }, []);

  return { values, errors, setValue, setValues, validateOne, setError, validate, reset, visibleValues };
}
