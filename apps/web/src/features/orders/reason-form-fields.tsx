import { VoidReasonFields } from './void-reason-picker.tsx';

/** The reason and note a void or a cancelled order asks for, as its form holds them. */
export interface ReasonValues {
  reason: string | null;
  note: string;
}

/** What these fields need of the form (useZodForm's answer fits). */
interface ReasonForm<V extends ReasonValues> {
  values: V;
  update: (change: (values: V) => V) => void;
  setError: (message: string | null) => void;
}

/** The request's reason and note: no reason yet is blank (the contract's "reasonRequired"), a blank note none. */
export const reasonInput = ({ reason, note }: ReasonValues) => ({ reason: reason ?? '', note: note.trim() || null });

/** The reason picker and note bound to a form: choosing a reason clears the form's message. */
export function ReasonFormFields<V extends ReasonValues>({ id, form }: { id: string; form: ReasonForm<V> }) {
  return (
    <VoidReasonFields
      id={id}
      reason={form.values.reason}
      onReason={(reason) => {
        form.update((v) => ({ ...v, reason }));
        form.setError(null);
      }}
      note={form.values.note}
      onNote={(note) => form.update((v) => ({ ...v, note }))}
    />
  );
}
