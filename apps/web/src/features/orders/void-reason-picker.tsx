import { VOID_NOTE_MAX } from '@comanda/domain';
import { cn } from '../../components/ui/cn.ts';
import { Input, Label } from '../../components/ui/input.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { useVoidReasons } from '../../lib/void-reasons.ts';

/** The admin's reason list as large tap targets (one choice), for voids and cancelled orders. */
export function VoidReasonPicker({ value, onChange }: { value: string | null; onChange: (reason: string) => void }) {
  const reasons = useVoidReasons().data ?? [];
  return (
    <fieldset>
      <legend className="mb-1 block text-sm font-medium text-slate-700">{t.voids.reason}</legend>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2" role="radiogroup" aria-label={t.voids.reason}>
        {reasons.map((reason) => (
          <button
            key={reason}
            type="button"
            role="radio"
            aria-checked={value === reason}
            onClick={() => onChange(reason)}
            className={cn(
              'min-h-11 rounded-lg border px-3 py-2 text-left text-sm font-medium',
              value === reason ? 'border-rose-700 bg-rose-50 text-rose-900' : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100',
            )}
          >
            {reason}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/** The reason (one of the admin's list) and the optional note a void or a cancelled order asks for. */
export function VoidReasonFields(props: {
  id: string;
  reason: string | null;
  onReason: (reason: string) => void;
  note: string;
  onNote: (note: string) => void;
}) {
  return (
    <>
      <VoidReasonPicker value={props.reason} onChange={props.onReason} />
      <div>
        <Label htmlFor={props.id}>{t.voids.note}</Label>
        <Input
          id={props.id}
          value={props.note}
          maxLength={VOID_NOTE_MAX}
          placeholder={t.voids.notePlaceholder}
          onChange={(e) => props.onNote(e.target.value)}
        />
      </div>
    </>
  );
}
