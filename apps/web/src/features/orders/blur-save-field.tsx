import { useEffect, useId, useRef, useState } from 'react';
import { normalizeOptionalText } from '@comanda/domain';
import { Input, Label, Textarea } from '../../components/ui/input.tsx';

/**
 * A text saved when focus leaves it (table name, admin comments): trimmed, blank saved as null,
 * nothing sent when unchanged. While not being edited it follows the server's value.
 */
export function BlurSaveField({
  label,
  value,
  placeholder,
  multiline,
  maxLength,
  disabled,
  hint,
  onSave,
}: {
  label: string;
  value: string | null;
  placeholder?: string;
  multiline?: boolean;
  maxLength: number;
  disabled?: boolean;
  hint?: string;
  onSave: (value: string | null) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(value ?? '');
  const editing = useRef(false);
  useEffect(() => {
    if (!editing.current) setDraft(value ?? '');
  }, [value]);
  const onBlur = () => {
    editing.current = false;
    const next = normalizeOptionalText(draft);
    setDraft(next ?? '');
    if (next !== value) onSave(next);
  };
  const common = {
    id,
    value: draft,
    placeholder,
    maxLength,
    disabled,
    onBlur,
    onFocus: () => {
      editing.current = true;
    },
  };
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      {multiline ? (
        <Textarea {...common} rows={3} onChange={(e) => setDraft(e.target.value)} />
      ) : (
        <Input {...common} onChange={(e) => setDraft(e.target.value)} />
      )}
      {hint && <p className="mt-1 text-xs text-slate-500">{hint}</p>}
    </div>
  );
}
