import { useEffect, useState } from 'react';
import { Minus, Plus } from 'lucide-react';
import { isValidQuantity, MAX_QUANTITY, MIN_QUANTITY } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { t } from '../../lib/i18n/es-MX.ts';

/** − [n] + stepper: never below 1, typed values checked before anything is sent. */
export function QuantityStepper({ value, onChange, id }: { value: string; onChange: (v: string) => void; id?: string }) {
  const n = Number(value);
  const step = (delta: number) =>
    onChange(String(Math.min(MAX_QUANTITY, Math.max(MIN_QUANTITY, (Number.isInteger(n) ? n : MIN_QUANTITY) + delta))));
  return (
    <div className="flex items-center gap-2">
      <Button variant="outline" size="icon" aria-label={t.quantity.minus} disabled={!(n > MIN_QUANTITY)} onClick={() => step(-1)}>
        <Minus className="h-4 w-4" aria-hidden />
      </Button>
      <div className="w-20">
        <Input
          id={id}
          inputMode="numeric"
          aria-label={t.quantity.label}
          className="text-center text-lg font-semibold"
          value={value}
          onChange={(e) => onChange(e.target.value.replace(/[^\d-]/g, '').slice(0, 4))}
        />
      </div>
      <Button variant="outline" size="icon" aria-label={t.quantity.plus} disabled={n >= MAX_QUANTITY} onClick={() => step(1)}>
        <Plus className="h-4 w-4" aria-hidden />
      </Button>
    </div>
  );
}

/** The parsed quantity, or the spec's message when it is not a whole number of at least 1. */
export function parseQuantity(value: string): { ok: true; quantity: number } | { ok: false; error: string } {
  const n = Number(value);
  return value.trim() !== '' && isValidQuantity(n) ? { ok: true, quantity: n } : { ok: false, error: t.quantity.error };
}

export function QuantityDialog({
  open,
  title = t.quantity.title,
  subtitle,
  busy,
  onClose,
  onConfirm,
}: {
  open: boolean;
  title?: string;
  subtitle?: string;
  busy: boolean;
  onClose: () => void;
  onConfirm: (quantity: number) => void;
}) {
  const [value, setValue] = useState('1');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (open) {
      setValue('1');
      setError(null);
    }
  }, [open]);
  const confirm = () => {
    const parsed = parseQuantity(value);
    if (!parsed.ok) setError(parsed.error);
    else onConfirm(parsed.quantity);
  };
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={title}
      busy={busy}
      className="max-w-sm"
      variant="accent"
      focusConfirm={false}
      confirmLabel={busy ? t.app.loading : t.quantity.confirm}
      onConfirm={confirm}
    >
      <form
        className="flex flex-col items-center gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          confirm();
        }}
      >
        {subtitle && <p className="text-center font-medium text-slate-700">{subtitle}</p>}
        <QuantityStepper
          value={value}
          onChange={(v) => {
            setError(null);
            setValue(v);
          }}
        />
        <p role="alert" className="min-h-5 text-sm text-rose-700">
          {error}
        </p>
      </form>
    </ConfirmDialog>
  );
}
