import { CheckCheck, Clock, StickyNote, User } from 'lucide-react';
import type { ReactNode } from 'react';
import type { BoardItem } from '@comanda/contract';
import { elapsedMinutes, STATIONS, tableLabel } from '@comanda/domain';
import { cn } from '../../components/ui/cn.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import type { BoardTicket } from './board-model.ts';
import { CancelledMark } from './cancelled-mark.tsx';
import { ModifierLines } from '../../components/modifier-lines.tsx';
import { useBusinessDates } from '../../lib/dates.ts';

interface Props {
  ticket: BoardTicket;
  column: 'pending' | 'ready' | 'delivered';
  now: number;
  showStation: boolean;
  busy: boolean;
  /** Null when this user may not move the ticket (another station's board). `lines`: only those lines. */
  onAdvance: ((ticket: BoardTicket, lines?: BoardItem[]) => void) | null;
}

function waitTone(minutes: number): string {
  if (minutes >= 20) return 'bg-rose-100 text-rose-800';
  if (minutes >= 10) return 'bg-amber-100 text-amber-900';
  return 'bg-slate-100 text-slate-700';
}

/**
 * One ticket: a table's batch for this station, its lines in large type, and one full-width
 * button that moves the whole ticket for hurried, wet hands.
 */
export function BoardCard({ ticket, column, now, showStation, busy, onAdvance }: Props) {
  if (column === 'delivered') return <DeliveredTicket ticket={ticket} showStation={showStation} />;
  const minutes = elapsedMinutes(new Date(ticket.createdAt), new Date(now));
  const station = STATIONS[ticket.station];
  return (
    <TicketFrame ticket={ticket} className="flex flex-col rounded-xl border-l-8 bg-white p-3 shadow-sm">
      <header className="flex items-start justify-between gap-2">
        <p className="min-w-0 text-lg leading-tight font-extrabold text-slate-900">{tableLabel(ticket.tableNumber)}</p>
        <span
          className={cn('flex shrink-0 items-center gap-1 rounded-full px-2.5 py-0.5 text-sm font-bold tabular-nums', waitTone(minutes))}
        >
          <Clock className="h-4 w-4" aria-hidden />
          {/* Screen readers hear the full sentence; the short form is for the eye. */}
          <span aria-hidden>{t.board.waiting(minutes)}</span>
          <span className="sr-only">{t.board.waitingLabel(minutes)}</span>
        </span>
      </header>
      <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-sm text-slate-600">
        {ticket.tableName && <span className="font-semibold break-words text-slate-800">{ticket.tableName}</span>}
        <span className="flex items-center gap-1">
          <User className="h-3.5 w-3.5" aria-hidden />
          {ticket.waiterName ?? t.tables.unassigned}
        </span>
        {showStation && (
          <span className="rounded px-1.5 text-xs font-semibold text-slate-950" style={{ backgroundColor: station.color }}>
            {station.label}
          </span>
        )}
      </p>
      {/* Each line is its own 44 px tap target (8 px apart) that moves only that line. */}
      <ul className={cn('mt-2', onAdvance ? 'space-y-2' : 'divide-y divide-slate-100')}>
        {ticket.items.map((item) => (
          <li
            key={item.id}
            data-item-id={item.id}
            data-testid="board-line"
            data-cancelled={item.cancelled ? 'true' : undefined}
            className={cn(onAdvance && !item.cancelled ? undefined : 'py-0.5', item.cancelled && 'rounded-md bg-rose-50 px-1')}
          >
            {item.cancelled && <CancelledMark reason={item.voidReason ?? null} />}
            {onAdvance && !item.cancelled ? (
              <button
                type="button"
                data-testid="board-line-bump"
                disabled={busy}
                onClick={() => onAdvance(ticket, [item])}
                className="flex min-h-11 w-full items-center rounded-lg bg-slate-100 px-1 text-left transition-colors hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 active:bg-slate-300 disabled:cursor-wait disabled:opacity-60"
              >
                <LineText item={item} />
                <span className="sr-only">
                  {t.floorAndPrint.lineBump(t.board.statusNames[column === 'pending' ? 'listo' : 'entregado'])}
                </span>
              </button>
            ) : (
              <LineText item={item} />
            )}
          </li>
        ))}
      </ul>
      {onAdvance && ticket.items.some((i) => !i.cancelled) && (
        <button
          type="button"
          className={cn(
            // Wraps rather than clips: "Marcar Entregado (12)" in a Listos column of a 1024 px board.
            'mt-2 flex min-h-11 w-full flex-wrap items-center justify-center gap-x-1.5 rounded-xl px-2 py-1 text-center text-base leading-tight font-bold shadow-sm transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:cursor-wait disabled:opacity-60',
            column === 'pending' ? 'bg-brand-500 text-slate-950 hover:bg-brand-600' : 'bg-emerald-700 text-white hover:bg-emerald-800',
          )}
          disabled={busy}
          onClick={() => onAdvance(ticket)}
        >
          {column === 'pending' ? t.board.markReady : t.board.markDelivered}
          {ticket.items.filter((i) => !i.cancelled).length > 1 && (
            <span className="text-sm font-semibold whitespace-nowrap opacity-90">({ticket.items.filter((i) => !i.cancelled).length})</span>
          )}
        </button>
      )}
    </TicketFrame>
  );
}

/** A line: its quantity in a dark chip, the product in large type, its note highlighted. */
function LineText({ item }: { item: BoardItem }) {
  return (
    <span className="block min-w-0 flex-1">
      <span className="flex items-baseline gap-2">
        <span className="shrink-0 rounded-md bg-slate-900 px-1.5 text-base font-black tabular-nums text-white">
          <span aria-hidden>{item.quantity}×</span>
          <span className="sr-only">{t.board.quantityLabel(item.quantity)}</span>
        </span>
        <span
          className={cn(
            'min-w-0 text-base leading-snug font-bold break-words text-slate-900',
            item.cancelled && 'text-rose-900 line-through',
          )}
        >
          {item.productName}
        </span>
      </span>
      <ModifierLines modifiers={item.modifiers} variant="board" struck={item.cancelled} />
      {item.notes && (
        <span className="mt-1 flex items-start gap-1.5 rounded-md bg-amber-50 px-2 py-1 text-base font-semibold text-amber-900">
          <StickyNote className="mt-1 h-4 w-4 shrink-0" aria-hidden />
          <span className="min-w-0 break-words">{item.notes}</span>
        </span>
      )}
    </span>
  );
}

/** A ticket's card: named for its table, edged in its station's colour. */
function TicketFrame({ ticket, className, children }: { ticket: BoardTicket; className: string; children: ReactNode }) {
  return (
    <article
      data-testid="board-card"
      data-ticket={ticket.key}
      aria-label={tableLabel(ticket.tableNumber)}
      className={className}
      style={{ borderLeftColor: STATIONS[ticket.station].color }}
    >
      {children}
    </article>
  );
}

/** Delivered tickets are a compact log: the table, the lines on one line, when they left. */
function DeliveredTicket({ ticket, showStation }: { ticket: BoardTicket; showStation: boolean }) {
  const dates = useBusinessDates();
  const station = STATIONS[ticket.station];
  return (
    <TicketFrame ticket={ticket} className="rounded-lg border-l-4 bg-white px-3 py-2 text-sm shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-x-2">
        <p className="min-w-0 truncate font-bold text-slate-900">
          {tableLabel(ticket.tableNumber)}
          {showStation && <span className="font-medium text-slate-600"> · {station.label}</span>}
        </p>
        <span className="flex items-center gap-1 text-xs font-semibold whitespace-nowrap tabular-nums text-slate-700">
          <CheckCheck className="h-3.5 w-3.5" aria-hidden />
          {t.board.deliveredAt(dates.time(ticket.updatedAt))}
        </span>
      </div>
      <ul className="mt-0.5 flex flex-wrap gap-x-2 text-slate-700">
        {ticket.items.map((item) => (
          <li key={item.id} data-item-id={item.id} data-testid="board-line">
            {item.quantity}× {item.productName}
          </li>
        ))}
      </ul>
    </TicketFrame>
  );
}
