import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import type { Order, Payment } from '@comanda/contract';
import { addCents, PAYMENT_METHOD_LABELS, shortOrderId, subtractCents, tableLabel, type Cents } from '@comanda/domain';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useBusinessDates } from '../../lib/dates.ts';

const P = t.payments;
// While a slip prints, the order's ticket copy stays off the paper.
const SLIP_ONLY = '@media print { [data-testid="ticket-print-copy"] { display: none !important; } }';

/** What is still owed after each payment: the balance now plus the parts paid after it. */
export function balanceAfter(order: Order, payment: Payment): Cents {
  const index = order.payments.findIndex((p) => p.id === payment.id);
  return addCents(order.balance, ...order.payments.slice(index + 1).map((p) => subtractCents(p.amount, p.tipAmount)));
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-2">
      <span>{label}</span>
      <span className="tabular-nums">{value}</span>
    </div>
  );
}

/** One payment's slip (COMPROBANTE DE PAGO), 80 mm, for a part of a mixed payment or a share. */
export function PaymentSlip({ order, payment }: { order: Order; payment: Payment }) {
  const dates = useBusinessDates();
  const L = t.checkout.ticket;
  return (
    <article
      className="mx-auto w-full max-w-[80mm] bg-white px-[4mm] py-[5mm] font-mono text-[12px] leading-snug text-black"
      data-testid="payment-slip"
    >
      <p className="text-center font-bold tracking-widest">{P.slipTitle}</p>
      <div className="my-2 border-t border-dashed border-black" aria-hidden />
      <Row label={L.date} value={dates.dateTime(payment.createdAt)} />
      <Row label={L.order} value={`#${shortOrderId(order.id)}`} />
      {order.folio !== null && <Row label={P.folio} value={String(order.folio)} />}
      <Row label={L.table} value={tableLabel(order.tableNumber)} />
      <div className="my-2 border-t border-dashed border-black" aria-hidden />
      <Row label={L.method} value={PAYMENT_METHOD_LABELS[payment.method]} />
      {payment.reference && <Row label={P.referenceShort('')} value={payment.reference} />}
      <Row label={P.slipPart} value={money(payment.amount - payment.tipAmount)} />
      <Row label={P.tip} value={money(payment.tipAmount)} />
      <div className="flex justify-between gap-2 text-[14px] font-bold">
        <span>{t.checkout.total.toUpperCase()}</span>
        <span className="tabular-nums">{money(payment.amount)}</span>
      </div>
      {payment.receivedAmount !== null && <Row label={L.received} value={money(payment.receivedAmount)} />}
      {payment.change !== null && <Row label={L.change} value={money(payment.change)} />}
      {payment.cashierName && <Row label={L.cashier} value={payment.cashierName} />}
      <div className="my-2 border-t border-dashed border-black" aria-hidden />
      <Row label={P.slipBalance} value={money(balanceAfter(order, payment))} />
    </article>
  );
}

/** Prints one slip with the browser (like the ticket), then calls onDone. */
export function PrintPaymentSlip({ order, payment, onDone }: { order: Order; payment: Payment; onDone: () => void }) {
  useEffect(() => {
    const timer = setTimeout(() => {
      try {
        window.print();
      } finally {
        onDone();
      }
    }, 50);
    return () => clearTimeout(timer);
  }, [onDone]);
  return createPortal(
    <div className="print-area invisible fixed top-0 left-0 w-[80mm] bg-white" aria-hidden="true">
      <style>{SLIP_ONLY}</style>
      <PaymentSlip order={order} payment={payment} />
    </div>,
    document.body,
  );
}
