import type { Order, Payment, TicketSummary } from '@comanda/contract';
import { PAYMENT_METHOD_LABELS } from '@comanda/domain';
import { Badge } from '../ui/badge.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';

const P = t.payments;

/** 'Folio 57' on the 80 mm ticket, next to the ticket number the spec asks for. */
export function TicketFolioRow({ folio }: { folio: number | null }) {
  if (folio === null) return null;
  return (
    <div className="flex justify-between gap-2 font-bold" data-testid="ticket-folio">
      <span>{P.folio}</span>
      <span className="tabular-nums">{folio}</span>
    </div>
  );
}

/** An order paid in parts: one line per payment (method, reference, amount) on the ticket. */
export function MixedPaymentRows({ payments }: { payments: readonly Payment[] }) {
  if (payments.length < 2) return null;
  return (
    <ul data-testid="ticket-payments">
      {payments.map((p) => (
        <li key={p.id} className="flex justify-between gap-2">
          <span>
            {PAYMENT_METHOD_LABELS[p.method]}
            {p.reference && ` ${P.referenceShort(p.reference)}`}
          </span>
          <span className="tabular-nums">{money(p.amount)}</span>
        </li>
      ))}
    </ul>
  );
}

/** The tickets history card: the folio and a badge per method used (mixed payments show each). */
export function TicketFolio({ folio }: { folio: number | null }) {
  if (folio === null) return null;
  return (
    <p className="text-sm font-semibold text-slate-700" data-testid="ticket-card-folio">
      {P.folioValue(folio)}
    </p>
  );
}

export function TicketMethodBadges({ ticket }: { ticket: TicketSummary }) {
  const methods = [...new Set((ticket.payments.length ? ticket.payments : ticket.payment ? [ticket.payment] : []).map((p) => p.method))];
  if (methods.length === 0) return null;
  return (
    <div className="flex flex-wrap justify-end gap-1">
      {methods.map((m) => (
        <Badge key={m} tone="success">
          {PAYMENT_METHOD_LABELS[m]}
        </Badge>
      ))}
    </div>
  );
}

/** The ticket modal: the folio and, for a mixed payment, every payment with its amount. */
export function TicketPaymentsDetail({ order }: { order: Order }) {
  if (order.folio === null && order.payments.length < 2) return null;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg bg-slate-50 p-3 text-sm" data-testid="ticket-payments-detail">
      {order.folio !== null && (
        <>
          <dt className="text-slate-500">{P.folio}</dt>
          <dd className="font-bold text-slate-900">{order.folio}</dd>
        </>
      )}
      {order.payments.length > 1 &&
        order.payments.map((p) => (
          <div key={p.id} className="contents">
            <dt className="text-slate-500">{PAYMENT_METHOD_LABELS[p.method]}</dt>
            <dd className="font-semibold tabular-nums text-slate-900">
              {money(p.amount)}
              {p.reference && <span className="ml-2 font-normal text-slate-600">{P.referenceShort(p.reference)}</span>}
            </dd>
          </div>
        ))}
    </dl>
  );
}
