import type { GeneralConfig, Order } from '@comanda/contract';
import { modifiersText, PAYMENT_METHOD_LABELS, shortOrderId, SPLIT_LABEL, tableLabel } from '@comanda/domain';
import { cn } from '../ui/cn.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { percentLabel, type TicketFigures } from './ticket-figures.ts';
import { TicketAdjustmentRows } from './ticket-adjustments.tsx';
import { TicketTaxes } from './tax-summary.tsx';
import { MixedPaymentRows, TicketFolioRow } from './ticket-payments.tsx';
import { useBusinessDates } from '../../lib/dates.ts';
import { TicketSelfInvoice, type SelfInvoiceProps } from './ticket-self-invoice.tsx';

export interface PrintableTicketProps {
  order: Order;
  business: GeneralConfig | undefined;
  figures: TicketFigures;
  /** Adds method, received, change, cashier and payment id of a paid order (reprints). */
  showPayment?: boolean;
  /** Date printed for an unpaid order; a paid one prints its completion time. */
  now?: number;
  /** The self-invoice QR, key and expiry (reprints from Tickets); absent: not shown. */
  selfInvoice?: SelfInvoiceProps;
  className?: string;
}

const L = t.checkout.ticket;

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={cn('flex justify-between gap-2', strong && 'text-[14px] font-bold')}>
      <span>{label}</span>
      <span className="tabular-nums">{value}</span>
    </div>
  );
}

const Rule = () => <div className="my-2 border-t border-dashed border-black" aria-hidden />;

/** The customer's receipt, 'PASE DE SALIDA', laid out for an 80 mm thermal printer. */
export function PrintableTicket({ order, business, figures, showPayment = false, now, selfInvoice, className }: PrintableTicketProps) {
  const dates = useBusinessDates();
  const lines = order.items.filter((item) => !item.isDeleted);
  const payment = order.payments[0];
  const when = order.completedAt ?? now ?? order.updatedAt;
  const name = business?.name || t.app.fallbackTitle;
  const address = business?.address || L.fallbackAddress;
  const phone = business?.phone || L.fallbackPhone;
  return (
    <article
      className={cn('mx-auto w-full max-w-[80mm] bg-white px-[4mm] py-[5mm] font-mono text-[12px] leading-snug text-black', className)}
      aria-label={t.checkout.ticketTitle}
      data-testid="ticket"
    >
      <header className="text-center">
        <p className="text-[15px] font-bold uppercase">{name}</p>
        <p className="mt-1 font-bold tracking-widest">{t.checkout.ticketTitle}</p>
      </header>
      <Rule />
      <Row label={L.date} value={dates.dateTime(when)} />
      <Row label={L.order} value={`#${shortOrderId(order.id)}`} />
      <TicketFolioRow folio={order.folio} />
      <Row
        label={L.table}
        value={order.tableName ? `${tableLabel(order.tableNumber)} · ${order.tableName}` : tableLabel(order.tableNumber)}
      />
      <Row label={L.waiter} value={order.waiterName ?? '—'} />
      <Row label={L.guests} value={String(figures.peopleCount)} />
      <Rule />
      <div className="flex justify-between font-bold">
        <span>
          {L.qty} {L.description}
        </span>
        <span>{L.amount}</span>
      </div>
      {lines.length === 0 && <p className="py-1 text-center">{L.noItems}</p>}
      <ul>
        {lines.map((item) => (
          <li key={item.id} className="py-0.5">
            <div className="flex justify-between gap-2">
              <span className="min-w-0 break-words">
                {item.quantity} x {item.productName}
              </span>
              <span className="tabular-nums">{money(item.productPrice * item.quantity)}</span>
            </div>
            {item.modifiers.length > 0 && <div className="pl-4 text-[11px]">{modifiersText(item.modifiers)}</div>}
            {item.quantity > 1 && <div className="pl-4 text-[11px]">@ {money(item.productPrice)}</div>}
            {item.promotionName && (
              <div className="pl-4 text-[11px]" data-testid="ticket-promo">
                {t.promotions.badge} {item.promotionName}
              </div>
            )}
          </li>
        ))}
      </ul>
      <Rule />
      <Row label={t.checkout.subtotal} value={money(figures.subtotal)} />
      <TicketAdjustmentRows figures={figures} Row={Row} />
      <TicketTaxes order={order} Row={Row} />
      <Row label={L.tip(percentLabel(figures.tipBps))} value={money(figures.tip)} />
      <Row label={t.checkout.total.toUpperCase()} value={money(figures.total)} strong />
      <Row label={L.perGuest(figures.peopleCount)} value={money(figures.perPerson)} />
      {figures.split && <Row label={SPLIT_LABEL(figures.split.count)} value={money(figures.split.each)} />}
      {showPayment && payment && (
        <>
          <Rule />
          <Row label={L.method} value={PAYMENT_METHOD_LABELS[payment.method]} />
          {payment.receivedAmount !== null && <Row label={L.received} value={money(payment.receivedAmount)} />}
          {payment.change !== null && <Row label={L.change} value={money(payment.change)} />}
          {payment.cashierName && <Row label={L.cashier} value={payment.cashierName} />}
          {payment.providerPaymentId && <Row label={L.paymentId} value={payment.providerPaymentId} />}
        </>
      )}
      {showPayment && <MixedPaymentRows payments={order.payments} />}
      {selfInvoice?.line && (
        <>
          <Rule />
          <TicketSelfInvoice {...selfInvoice} />
        </>
      )}
      <Rule />
      <footer className="space-y-0.5 text-center">
        <p className="font-bold">{t.checkout.thanks}</p>
        <p>{address}</p>
        <p>{L.phone(phone)}</p>
      </footer>
    </article>
  );
}
