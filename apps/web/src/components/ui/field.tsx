import type { ReactNode } from 'react';
import { Label } from './input.tsx';

/** A labelled form field: the label names the control by its id. */
export function Field({ id, label, children }: { id: string; label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}
