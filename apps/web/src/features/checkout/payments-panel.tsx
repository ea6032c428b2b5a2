import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Plus, Printer } from 'lucide-react';
import type { Order, Payment } from '@comanda/contract';
import { chargeFigures, isOrderOpen, PAYMENT_METHOD_LABELS, type Cents } from '@comanda/domain';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Button } from '../../components/ui/button.tsx';
import { EqualSharesForm } from '../../components/equal-shares-form.tsx';
import { money } from '../../lib/format.ts';
import { orderKey } from '../../lib/orders.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { AddPaymentDialog } from './add-payment-dialog.tsx';
import { CardPaymentDialog } from './card-payment-dialog.tsx';
import { PrintPaymentSlip } from './payment-slip.tsx';
import { orderScreenPath } from './order-screen-path.ts';
import { useCheckoutArea } from './use-checkout-target.ts';

const P = t.payments;

function PaymentLine({ payment, onSlip }: { payment: Payment; onSlip: () => void }) {
  return (
    <li className="flex items-center gap-2 py-2" data-testid="payment-line">
      <div className="min-w-0 flex-1">
        <p className="font-medium">
          {PAYMENT_METHOD_LABELS[payment.method]} <span className="tabular-nums">{money(payment.amount)}</span>
        </p>
        <p className="text-xs text-slate-600">
          {payment.tipAmount > 0 && `${P.tip} ${money(payment.tipAmount)} · `}
          {payment.reference && `${P.referenceShort(payment.reference)} · `}
          {payment.cashierName && P.cashier(payment.cashierName)}
        </p>
      </div>
      <Button variant="ghost" size="sm" onClick={onSlip} aria-label={`${P.slip} ${PAYMENT_METHOD_LABELS[payment.method]}`}>
        <Printer className="h-4 w-4" aria-hidden />
        {P.slip}
      </Button>
    </li>
  );
}

/**
 * Mixed payments on the checkout (decision 0015): the payments so far, the balance, 'Agregar
 * pago', and splitting into equal checks, each then paid on its own.
 * A paid order shows its folio. Paying everything at once stays the SPEC flow below.
 */
export function PaymentsPanel({ order, className }: { order: Order; className?: string }) {
  const qc = useQueryClient();
  const open = isOrderOpen(order.status);
  const [dialog, setDialog] = useState<{ proposed: Cents | null; title?: string } | null>(null);
  const [card, setCard] = useState<{ part: Cents; tipBps: number } | null>(null);
  const [slip, setSlip] = useState<Payment | null>(null);
  const navigate = useNavigate();
  const { base } = useCheckoutArea();
  const doneSlip = useCallback(() => setSlip(null), []);

  if (!open && order.folio === null && order.payments.length <= 1) return null;

  return (
    <Card className={cn('p-4', className)} data-testid="payments-panel">
      <div className="mb-2 flex items-baseline justify-between gap-2">
        <h2 className="font-semibold">{P.title}</h2>
        {order.folio !== null && (
          <span className="rounded bg-slate-900 px-2 py-0.5 text-sm font-bold text-white" data-testid="order-folio">
            {P.folioValue(order.folio)}
          </span>
        )}
      </div>
      {open && <p className="mb-2 text-xs text-slate-600">{P.partsHint}</p>}
      {order.payments.length === 0 ? (
        <p className="text-sm text-slate-600">{P.none}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {order.payments.map((p) => (
            <PaymentLine key={p.id} payment={p} onSlip={() => setSlip(p)} />
          ))}
        </ul>
      )}
      {open && (
        <>
          <p className="mt-2 flex items-baseline justify-between rounded-lg bg-amber-50 px-3 py-2 text-amber-900">
            <span className="text-sm font-medium">{P.balance}</span>
            <span className="text-xl font-bold tabular-nums" data-testid="order-balance">
              {money(order.balance)}
            </span>
          </p>
          <Button variant="outline" size="lg" className="mt-3 w-full" onClick={() => setDialog({ proposed: null })}>
            <Plus className="h-5 w-5" aria-hidden />
            {P.add}
          </Button>
          {/* Equal shares are separate checks: before any part is paid, once. */}
          {order.payments.length === 0 && !(order.shareAmount ?? 0) && !(order.sharedOut ?? 0) && (
            <div className="mt-4 border-t border-slate-200 pt-3">
              <EqualSharesForm order={order} onDone={(orders) => void navigate(orderScreenPath(base, orders[0] ?? order))} />
            </div>
          )}
        </>
      )}
      <AddPaymentDialog
        open={dialog !== null}
        orderId={order.id}
        balance={order.balance}
        proposed={dialog?.proposed ?? null}
        title={dialog?.title}
        onClose={() => setDialog(null)}
        onCard={(part, tipBps) => {
          setDialog(null);
          setCard({ part, tipBps });
        }}
        onRecorded={() => setDialog(null)}
      />
      {card && (
        <CardPaymentDialog
          open
          orderId={order.id}
          method="tarjeta"
          tipBps={card.tipBps}
          expectedTotal={chargeFigures(card.part, { bps: card.tipBps }).total}
          partAmount={card.part}
          onClose={() => setCard(null)}
          onPaid={() => {
            setCard(null);
            toast.success(P.partToast);
            void qc.invalidateQueries({ queryKey: orderKey(order.id) });
          }}
        />
      )}
      {slip && <PrintPaymentSlip order={order} payment={slip} onDone={doneSlip} />}
    </Card>
  );
}
