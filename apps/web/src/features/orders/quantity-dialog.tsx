import { useEffect } from 'react';
import { Minus, Plus } from 'lucide-react';
import { MAX_QUANTITY, MIN_QUANTITY } from '@comanda/domain';
import { AddUnitsBodySchema } from '@comanda/contract';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';

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

/** A typed quantity as the contract's quantity reads it: blank is no number. */
export const quantityInput = (value: string) => ({ quantity: value.trim() === '' ? Number.NaN : Number(value) });

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
  const form = useZodForm({
    initial: { value: '1' },
    schema: AddUnitsBodySchema,
    toInput: (v: { value: string }) => quantityInput(v.value),
    onValid: ({ quantity }) => onConfirm(quantity),
  });
  const { reset } = form;
  useEffect(() => {
    if (open) reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a dialog that opens starts over; reset is new each render
  }, [open]);
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
      onConfirm={form.submit}
    >
      <form className="flex flex-col items-center gap-3" onSubmit={form.onSubmit}>
        {subtitle && <p className="text-center font-medium text-slate-700">{subtitle}</p>}
        <QuantityStepper
          value={form.values.value}
          onChange={(v) => {
            form.setError(null);
            form.set('value', v);
          }}
        />
        <p role="alert" className="min-h-5 text-sm text-rose-700">
          {form.error}
        </p>
      </form>
    </ConfirmDialog>
  );
}
