import type { ComponentType } from 'react';
import { useQuery } from '@tanstack/react-query';
import { OrderTaxesResponseSchema, type Order } from '@comanda/contract';
import { TAX_TEXT, taxSummary, type TaxBreakdown } from '@comanda/domain';
import { get } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { Card } from '../ui/card.tsx';

/**
 * The check's taxes (IVA included in the prices): a paid check's frozen breakdown as the server
 * stored it; an open one's as the server computes it now from its lines (keyed by the order's
 * version, so every change asks again). The web never works out taxes by itself.
 */
export function useOrderTaxes(order: Order): TaxBreakdown | null {
  const frozen = order.status === 'pagado' ? (order.taxBreakdown ?? null) : null;
  const live = useQuery({
    queryKey: ['order-taxes', order.id, order.version],
    queryFn: async () => (await get(OrderTaxesResponseSchema, `/api/orders/${order.id}/taxes`)).taxBreakdown,
    enabled: frozen === null && order.status === 'activo',
    staleTime: Infinity,
    retry: false,
  });
  return frozen ?? live.data ?? null;
}

type RowComponent = ComponentType<{ label: string; value: string }>;

/** "Subtotal sin IVA", one "IVA 16 %" line per rate, "Total" and "Precios con IVA incluido", in the caller's rows. */
export function TaxRows({
  breakdown,
  Row,
  Note,
}: {
  breakdown: TaxBreakdown | null;
  Row: RowComponent;
  Note: ComponentType<{ text: string }>;
}) {
  if (!breakdown) return <Note text={TAX_TEXT.included} />;
  const summary = taxSummary(breakdown);
  return (
    <div data-testid="tax-summary">
      <Row label={TAX_TEXT.subtotal} value={money(summary.subtotal)} />
      {summary.rates.map((r) => (
        <Row key={`${r.kind}-${r.rateBp}`} label={r.label} value={money(r.amount)} />
      ))}
      <Row label={TAX_TEXT.total} value={money(summary.total)} />
      {summary.includedNote && <Note text={TAX_TEXT.included} />}
    </div>
  );
}

/** The printed ticket's tax lines (PASE DE SALIDA), in its own row style. */
export function TicketTaxes({ order, Row }: { order: Order; Row: RowComponent }) {
  const breakdown = useOrderTaxes(order);
  return <TaxRows breakdown={breakdown} Row={Row} Note={TicketNote} />;
}

const TicketNote = ({ text }: { text: string }) => <p className="text-center text-[11px]">{text}</p>;

/** The checkout's card beside the summary: what of the check is IVA, by rate. */
export function TaxSummaryCard({ order, className }: { order: Order; className?: string }) {
  const breakdown = useOrderTaxes(order);
  return (
    <Card className={className}>
      <section className="space-y-1 p-3 text-sm lg:p-4" aria-label={TAX_TEXT.heading}>
        <h2 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{TAX_TEXT.heading}</h2>
        <TaxRows breakdown={breakdown} Row={CardRow} Note={CardNote} />
      </section>
    </Card>
  );
}

function CardRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between text-slate-700">
      <span>{label}</span>
      <span className="tabular-nums">{value}</span>
    </div>
  );
}

const CardNote = ({ text }: { text: string }) => <p className="pt-1 text-xs text-slate-600">{text}</p>;

/**
 * A period's or a session's taxes (cash close, corte, reports): ventas netas, IVA trasladado by
 * rate, the sales with taxes and, when given, the tips apart (not taxed). From the server's sums
 * of the frozen breakdowns.
 */
export function TaxTotals({ taxes, tips, Row }: { taxes: TaxBreakdown; tips?: number; Row: RowComponent }) {
  const summary = taxSummary(taxes);
  return (
    <>
      <Row label={TAX_TEXT.netSales} value={money(summary.subtotal)} />
      {summary.rates.map((r) => (
        <Row
          key={`${r.kind}-${r.rateBp}`}
          label={r.kind === 'iva' ? `${TAX_TEXT.vatHeading} · ${r.label}` : r.label}
          value={money(r.amount)}
        />
      ))}
      <Row label={TAX_TEXT.withTaxes} value={money(summary.total)} />
      {tips !== undefined && <Row label={TAX_TEXT.tips} value={money(tips)} />}
    </>
  );
}

/** The cash close's card: the shift's paid checks' taxes. */
export function TaxTotalsCard({ taxes, tips, testId }: { taxes: TaxBreakdown; tips?: number; testId?: string }) {
  return (
    <Card>
      <section className="space-y-1 p-4 text-sm" aria-label={TAX_TEXT.sheet} data-testid={testId}>
        <h2 className="font-semibold text-slate-900">{TAX_TEXT.sheet}</h2>
        <TaxTotals taxes={taxes} tips={tips} Row={CardRow} />
        <CardNote text={TAX_TEXT.included} />
      </section>
    </Card>
  );
}
