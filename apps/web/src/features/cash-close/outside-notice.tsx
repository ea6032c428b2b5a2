import { useState } from 'react';
import { AlertTriangle } from 'lucide-react';
import { tableLabel } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useOutsideShift } from './cash-close-api.ts';
import { shiftDateTime } from '../../lib/dates.ts';

/** Paid orders between shifts belong to no cash close; the admin is told, and can see them. */
export function OutsideNotice({ date, count, total, timezone }: { date: string; count: number; total: number; timezone: string }) {
  const [open, setOpen] = useState(false);
  const list = useOutsideShift(date, open);
  if (count === 0) return null;
  return (
    <div role="status" className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-900" data-testid="outside-shift">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <p className="flex items-start gap-2">
          <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
          <span>
            <span className="font-semibold">{t.cashClose.outside(count, money(total))}</span> {t.cashClose.outsideHint}
          </span>
        </p>
        <Button variant="outline" size="sm" onClick={() => setOpen((v) => !v)} aria-expanded={open} className="print:hidden">
          {open ? t.cashClose.hideOutside : t.cashClose.showOutside}
        </Button>
      </div>
      {open && (
        <div className="mt-3">
          {list.isPending && <Spinner />}
          {list.isError && <ErrorState message={errorMessage(list.error, t.cashClose.loadError)} onRetry={() => void list.refetch()} />}
          {list.data && (
            <>
              <ul className="divide-y divide-amber-200 overflow-hidden rounded-lg border border-amber-200 bg-white text-sm text-slate-800">
                {list.data.tickets.map((ticket) => (
                  <li key={ticket.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
                    <span className="font-mono font-semibold">#{ticket.ticketNumber}</span>
                    <span className="text-slate-500">{shiftDateTime(ticket.completedAt, timezone)}</span>
                    <span>
                      {tableLabel(ticket.tableNumber)}
                      {ticket.tableName ? ` · ${ticket.tableName}` : ''}
                    </span>
                    <span className="text-slate-500">{ticket.waiterName ?? t.cashClose.noWaiter}</span>
                    <span className="font-semibold tabular-nums">{money(ticket.total)}</span>
                  </li>
                ))}
              </ul>
              {list.data.count > list.data.tickets.length && (
                <p className="mt-2 text-xs">{t.cashClose.outsideMore(list.data.tickets.length, list.data.count)}</p>
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}
