import { useEffect } from 'react';
import { ArrowLeftRight, Smartphone } from 'lucide-react';
import { PAYMENT_REFERENCE_MAX, PaymentReferenceSchema } from '@comanda/contract';
import { PAYMENT_METHOD_LABELS, type Cents } from '@comanda/domain';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';

const T = t.checkout.transfer;

export interface TransferDialogProps {
  open: boolean;
  total: Cents;
  busy: boolean;
  onClose: () => void;
  /** 'Registrar transferencia': the screen asks the cashier's PIN and records it with this reference. */
  onRegister: (reference: string) => void;
  /** 'Cobrar en terminal': the terminal dialog, for a transfer. */
  onTerminal: () => void;
}

/** The Transferencia checkout: recorded with its SPEI reference first, the terminal as the other choice. */
export function TransferDialog({ open, total, busy, onClose, onRegister, onTerminal }: TransferDialogProps) {
  // The reference is checked by the contract's rule for it, and sent trimmed.
  const form = useZodForm({
    initial: { reference: '' },
    schema: PaymentReferenceSchema,
    toInput: (v: { reference: string }) => v.reference,
    onValid: (reference) => onRegister(reference),
  });
  const { reset } = form;
  useEffect(() => {
    if (open) reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a dialog that opens starts over; reset is new each render
  }, [open]);

  return (
    <Dialog open={open} onClose={onClose} title={t.card.title(PAYMENT_METHOD_LABELS.transferencia)} locked={busy} variant="sheet">
      <div className="space-y-4" data-testid="transfer-dialog">
        <div className="rounded-xl bg-slate-50 p-3 text-center">
          <p className="text-xs tracking-wide text-slate-600 uppercase">{t.card.amount}</p>
          <p className="text-3xl font-bold text-slate-900 tabular-nums">{money(total)}</p>
        </div>
        <form className="space-y-3" onSubmit={form.onSubmit}>
          <p className="text-sm text-slate-700">{T.registerHint}</p>
          <div>
            <Label htmlFor="transfer-reference">{T.reference}</Label>
            <Input
              id="transfer-reference"
              value={form.values.reference}
              maxLength={PAYMENT_REFERENCE_MAX}
              autoComplete="off"
              onChange={(e) => form.set('reference', e.target.value)}
            />
          </div>
          <FormError message={form.error} />
          <Button type="submit" variant="accent" size="lg" className="w-full" disabled={busy} data-autofocus>
            <ArrowLeftRight className="h-5 w-5" aria-hidden />
            {T.register}
          </Button>
        </form>
        <div className="border-t border-slate-200 pt-3">
          <p className="mb-2 text-center text-sm text-slate-600">{T.orTerminal}</p>
          <Button variant="outline" size="lg" className="w-full" disabled={busy} onClick={onTerminal}>
            <Smartphone className="h-5 w-5" aria-hidden />
            {T.terminal}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
