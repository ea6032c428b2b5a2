import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import type { Order } from '@comanda/contract';
import { shortOrderId, statusChip, tableLabel, type StatusChip } from '@comanda/domain';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { t } from '../../lib/i18n/es-MX.ts';

const CHIP: Record<StatusChip, { label: string; tone: BadgeTone }> = {
  PAGADO: { label: t.checkout.paid, tone: 'success' },
  CANCELADO: { label: t.checkout.cancelled, tone: 'danger' },
  PENDIENTE: { label: t.checkout.pending, tone: 'warning' },
};

export function CheckoutHeader({ order, backTo }: { order: Order; backTo: string }) {
  const chip = CHIP[statusChip(order.status)];
  return (
    <header className="flex items-center gap-3">
      <Link
        to={backTo}
        aria-label={t.checkout.back}
        className="flex h-11 w-11 shrink-0 items-center justify-center self-start rounded-lg border border-slate-300 bg-white text-slate-700 hover:bg-slate-100"
      >
        <ArrowLeft className="h-5 w-5" aria-hidden />
      </Link>
      <div className="min-w-0 flex-1">
        <h1 className="text-xl leading-tight font-bold">
          {t.checkout.title} · {tableLabel(order.tableNumber)}
        </h1>
        {/* The table's name can be long ("Cumpleaños de…"): its own line, never cut. */}
        {order.tableName && <p className="text-sm font-medium break-words text-slate-700">{order.tableName}</p>}
        <p className="text-sm break-words text-slate-500">
          #{shortOrderId(order.id)} · {order.waiterName ?? t.tables.unassigned}
        </p>
      </div>
      <Badge tone={chip.tone} className="shrink-0 self-start px-2.5 py-1" data-testid="status-chip">
        {chip.label}
      </Badge>
    </header>
  );
}
