import { useQuery } from '@tanstack/react-query';
import { ChevronDown } from 'lucide-react';
import { TicketsPageSchema } from '@comanda/contract';
import { tableLabel } from '@comanda/domain';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { get } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useLiveQueries } from '../../lib/use-live.ts';
import { TICKETS_KEY } from './tickets-api.ts';
import { formatInZone } from '../../lib/dates.ts';

const L = t.voids;
const KEY = [...TICKETS_KEY, 'cancelled'] as const;

/** The latest cancelled orders, marked CANCELADO, apart from the paid tickets (never sales). */
export function CancelledTickets() {
  useLiveQueries(['tickets'], [KEY]);
  const list = useQuery({ queryKey: KEY, queryFn: () => get(TicketsPageSchema, '/api/tickets?status=cancelado&limit=50') });
  const tickets = list.data?.tickets ?? [];
  const timezone = list.data?.timezone ?? 'America/Mexico_City';
  return (
    <details className="group rounded-xl border border-slate-200 bg-white" data-testid="cancelled-tickets">
      <summary className="flex min-h-11 cursor-pointer items-center justify-between gap-2 px-4 py-2 font-semibold text-slate-800">
        <span>
          {L.ticketsCancelled} {list.isSuccess && <span className="font-normal text-slate-500">({tickets.length})</span>}
        </span>
        <ChevronDown className="h-4 w-4 transition-transform group-open:rotate-180" aria-hidden />
      </summary>
      <div className="space-y-3 border-t border-slate-100 p-4">
        <p className="text-sm text-slate-500">{L.ticketsCancelledHint}</p>
        {list.isSuccess && tickets.length === 0 && <p className="text-sm text-slate-500">{L.ticketsCancelledEmpty}</p>}
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {tickets.map((ticket) => (
            <Card key={ticket.id} className="flex flex-col gap-2 p-4" data-testid="cancelled-ticket">
              <div className="flex items-start justify-between gap-2">
                <div>
                  <p className="font-mono text-lg font-bold tracking-wider text-slate-500 line-through">#{ticket.ticketNumber}</p>
                  <p className="text-sm text-slate-500">
                    {ticket.businessDate} · {formatInZone(ticket.completedAt, 'time', timezone)}
                  </p>
                </div>
                <Badge tone="danger">{L.ticketBadge}</Badge>
              </div>
              <p className="text-sm font-semibold text-slate-800">
                {tableLabel(ticket.tableNumber)}
                {ticket.tableName && <span className="font-normal text-slate-500"> · {ticket.tableName}</span>}
                <span className="font-normal text-slate-600"> · {ticket.waiterName ?? t.tickets.noWaiter}</span>
              </p>
              <p className="text-sm text-rose-800">{t.voids.voidedReason(ticket.cancelReason ?? L.noReason, null)}</p>
            </Card>
          ))}
        </div>
      </div>
    </details>
  );
}
