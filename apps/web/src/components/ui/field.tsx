import type { InputHTMLAttributes, ReactNode } from 'react';
import { Input, Label } from './input.tsx';

/** A labelled form field: the label names the control by its id. */
export function Field({ id, label, children }: { id: string; label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

/** A labelled text input that hands on its text (the forms' `set(key, value)`), then any hint below it. */
export function TextField({
  id,
  label,
  onValue,
  children,
  ...input
}: { id: string; label: ReactNode; onValue: (value: string) => void; children?: ReactNode } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'onChange' | 'children'
>) {
  return (
    <Field id={id} label={label}>
      <Input id={id} {...input} onChange={(e) => onValue(e.target.value)} />
      {children}
    </Field>
  );
}
