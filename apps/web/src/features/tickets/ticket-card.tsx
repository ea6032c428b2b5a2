import { Printer } from 'lucide-react';
import type { TicketSummary } from '@comanda/contract';
import { tableLabel } from '@comanda/domain';
import { TicketFolio, TicketMethodBadges } from '../../components/ticket/ticket-payments.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { formatInZone } from '../../lib/dates.ts';

export function TicketCard({ ticket, timezone, onOpen }: { ticket: TicketSummary; timezone: string; onOpen: () => void }) {
  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="ticket-card">
      <div className="flex items-start justify-between gap-2">
        <div>
          <p className="font-mono text-lg font-bold tracking-wider text-slate-900">#{ticket.ticketNumber}</p>
          <TicketFolio folio={ticket.folio} />
          <p className="text-sm text-slate-500">{formatInZone(ticket.completedAt, 'time', timezone)}</p>
        </div>
        <TicketMethodBadges ticket={ticket} />
      </div>
      <div className="min-w-0 text-sm">
        <p className="font-semibold text-slate-800">
          {tableLabel(ticket.tableNumber)}
          {ticket.tableName && <span className="font-normal text-slate-500"> · {ticket.tableName}</span>}
        </p>
        <p className="truncate text-slate-600">
          {t.order.waiter}: {ticket.waiterName ?? t.tickets.noWaiter}
        </p>
      </div>
      <div className="mt-auto flex items-center justify-between gap-2 border-t border-slate-100 pt-3">
        <span className="text-xl font-bold tabular-nums text-slate-900">{money(ticket.total)}</span>
        <Button variant="outline" size="sm" onClick={onOpen}>
          <Printer className="h-4 w-4" aria-hidden />
          {t.tickets.view}
        </Button>
      </div>
    </Card>
  );
}
