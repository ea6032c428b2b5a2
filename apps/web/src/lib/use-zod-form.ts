import { useState, type FormEvent } from 'react';

/**
 * What the form needs of a contract schema (a zod schema fits as it is): parse, and say what is wrong.
 * Typed structurally so the web does not import zod itself.
 */
export interface FormSchema<Out> {
  safeParse(input: unknown): { success: true; data: Out } | { success: false; error: { issues: readonly FormIssue[] } };
}

/** A zod issue; a value matching none of a union's options carries each option's own issues. */
interface FormIssue {
  message: string;
  errors?: readonly (readonly FormIssue[])[];
}

/** The text to show: the first issue's, or for a union the first option's own (e.g. the PIN's format). */
export function firstMessage(issues: readonly FormIssue[]): string | null {
  const issue = issues[0];
  if (!issue) return null;
  const inner = issue.errors?.[0];
  return inner && inner.length > 0 ? firstMessage(inner) : issue.message;
}

export interface ZodFormOptions<Values, Out> {
  /** The fields as typed (strings for numbers the user types, e.g. a price in pesos). */
  initial: Values | (() => Values);
  /**
   * The contract's schema (or the part of it this form checks in the browser); or a loader of it,
   * for a form on the first screen (sign-in), so the schemas are not in the JS every route loads.
   */
  schema: FormSchema<Out> | (() => Promise<FormSchema<Out>>);
  /** The typed fields → what the schema parses (the request body, or part of it). */
  toInput: (values: Values) => unknown;
  /** With a schema loader: the body to send unchecked if the schema cannot load (the server checks it anyway). */
  unchecked?: (values: Values) => Out;
  /** A rule the contract cannot state (two fields that must match): its message, or null. Runs after the schema. */
  check?: (values: Values) => string | null;
  /**
   * A rule the form words itself before the schema sees the fields (e.g. a price that cannot be read,
   * said as the screen always said it): its message, or null.
   */
  before?: (values: Values) => string | null;
  /** Called with the parsed data once the fields are valid. */
  onValid: (data: Out, values: Values) => void;
  /** Called with the message when they are not (a form that says it in a toast rather than under its fields). */
  onInvalid?: (message: string) => void;
}

/**
 * One way to write a form: controlled fields, one form-level error (the exact Spanish text of the
 * contract's schema, as the server would answer it), submit only when valid.
 */
export function useZodForm<Values extends object, Out>({
  initial,
  schema,
  toInput,
  unchecked,
  check,
  before,
  onValid,
  onInvalid,
}: ZodFormOptions<Values, Out>) {
  const [values, setValues] = useState<Values>(initial);
  const [error, setError] = useState<string | null>(null);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));
  /** A change computed from the current fields (a list's row added, removed or edited). */
  const update = (change: (values: Values) => Values) => setValues(change);

  /** Check the fields and, when valid, hand them on: for a dialog's confirm button outside the form. */
  const submit = () => {
    if (typeof schema === 'function')
      void schema().then(validate, () => {
        if (unchecked) onValid(unchecked(values), values);
      });
    else validate(schema);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit();
  };

  const validate = (loaded: FormSchema<Out>) => {
    const early = before?.(values) ?? null;
    if (early) {
      setError(early);
      onInvalid?.(early);
      return;
    }
    const parsed = loaded.safeParse(toInput(values));
    const problem = parsed.success ? (check?.(values) ?? null) : firstMessage(parsed.error.issues);
    if (!parsed.success || problem) {
      setError(problem);
      if (problem) onInvalid?.(problem);
      return;
    }
    setError(null);
    onValid(parsed.data, values);
  };

  /** Back to the first values (or the given ones), without an error. */
  const reset = (next?: Values) => {
    setValues(next ?? (typeof initial === 'function' ? (initial as () => Values)() : initial));
    setError(null);
  };

  return { values, set, update, error, setError, onSubmit, submit, reset };
}
