import type { AddPaymentResponse } from '@comanda/contract';
import { changeDue, TIP_PRESETS_BPS, type Cents } from '@comanda/domain';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { PinDialog } from '../../components/pin-dialog.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { choiceButton } from './tip-section.tsx';
import { MethodChoice } from './payment-section.tsx';
import { partFigures, useAddPaymentForm } from './use-add-payment-form.ts';

const P = t.payments;
const TIP_CHOICES = [0, ...TIP_PRESETS_BPS] as const;

export interface AddPaymentDialogProps {
  open: boolean;
  orderId: string;
  balance: Cents;
  /** The amount proposed (an equal share); the balance when absent. */
  proposed: Cents | null;
  title?: string;
  onClose: () => void;
  /** Card: the part goes to the terminal (the screen opens the card dialog for it). */
  onCard: (part: Cents, tipBps: number) => void;
  onRecorded: (res: AddPaymentResponse) => void;
}

/** 'Agregar pago': method, amount (≤ balance), its own tip, cash received or transfer reference. */
export function AddPaymentDialog({
  open,
  orderId,
  balance,
  proposed,
  title = P.addTitle,
  onClose,
  onCard,
  onRecorded,
}: AddPaymentDialogProps) {
  const { form, add, paying, setPaying, submitPin } = useAddPaymentForm({ open, orderId, balance, proposed, onCard, onRecorded });
  const { method, amount: amountText, tipBps, received: receivedText, reference } = form.values;
  const { total, received } = partFigures(form.values);
  const pinOpen = paying !== null;

  return (
    <>
      <Dialog
        open={open && !pinOpen}
        onClose={onClose}
        title={title}
        locked={add.isPending}
        variant="sheet"
        footer={
          <Button
            variant="accent"
            size="lg"
            className="w-full"
            disabled={add.isPending}
            onClick={form.submit}
            data-testid="add-payment-submit"
          >
            {method === 'tarjeta' ? P.chargeCard : P.submit} · {money(total)}
          </Button>
        }
      >
        <div className="space-y-4">
          <p className="flex items-baseline justify-between text-sm">
            <span className="text-slate-600">{P.balance}</span>
            <span className="font-semibold tabular-nums">{money(balance)}</span>
          </p>
          <MethodChoice label={P.method} method={method} onMethod={(m) => form.set('method', m)} className="h-14" />
          <div>
            <Label htmlFor="part-amount">{P.amount}</Label>
            <Input
              id="part-amount"
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              value={amountText}
              onChange={(e) => form.set('amount', e.target.value)}
              className="h-12 text-lg tabular-nums"
            />
          </div>
          <div>
            <p className="mb-1 text-sm font-medium">{P.tip}</p>
            <div className="grid grid-cols-4 gap-2" role="group" aria-label={P.tip}>
              {TIP_CHOICES.map((bps) => (
                <button
                  key={bps}
                  type="button"
                  aria-pressed={tipBps === bps}
                  className={choiceButton(tipBps === bps)}
                  onClick={() => form.set('tipBps', bps)}
                >
                  {bps === 0 ? P.noTip : `${bps / 100}%`}
                </button>
              ))}
            </div>
          </div>
          {method === 'efectivo' && (
            <div>
              <Label htmlFor="part-received">{P.received}</Label>
              <Input
                id="part-received"
                type="number"
                inputMode="decimal"
                min={0}
                step={0.01}
                placeholder="0.00"
                value={receivedText}
                onChange={(e) => form.set('received', e.target.value)}
                className="h-12 text-lg tabular-nums"
              />
              <p className="mt-2 flex items-baseline justify-between rounded-lg bg-emerald-50 px-3 py-2 text-emerald-900">
                <span className="text-sm font-medium">{P.change}</span>
                <span className="font-bold tabular-nums" data-testid="part-change">
                  {money(received === null ? 0 : changeDue(received, total))}
                </span>
              </p>
            </div>
          )}
          {method === 'transferencia' && (
            <div>
              <Label htmlFor="part-reference">{P.reference}</Label>
              <Input id="part-reference" value={reference} maxLength={60} onChange={(e) => form.set('reference', e.target.value)} />
            </div>
          )}
          <p className="flex items-baseline justify-between border-t border-slate-200 pt-2">
            <span className="text-sm font-medium text-slate-600">{P.toPay}</span>
            <span className="text-xl font-bold tabular-nums">{money(total)}</span>
          </p>
        </div>
      </Dialog>
      <PinDialog open={pinOpen} title={P.cashierPin} description={P.cashierPinHint} onClose={() => setPaying(null)} onSubmit={submitPin} />
    </>
  );
}
