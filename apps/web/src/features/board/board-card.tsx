import { CheckCheck, Clock, StickyNote, User } from 'lucide-react';
import type { BoardItem } from '@comanda/contract';
import { elapsedMinutes, nextBoardStatus, STATIONS, tableLabel } from '@comanda/domain';
import { cn } from '../../components/ui/cn.ts';
import { formatTime } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';

interface Props {
  item: BoardItem;
  now: number;
  showStation: boolean;
  busy: boolean;
  /** Null when this user may not move the item (another station's board). */
  onAdvance: ((item: BoardItem) => void) | null;
}

function waitTone(minutes: number): string {
  if (minutes >= 20) return 'bg-rose-100 text-rose-800';
  if (minutes >= 10) return 'bg-amber-100 text-amber-800';
  return 'bg-slate-100 text-slate-700';
}

/** One item to prepare: large type and a full-width button for hurried, wet hands. */
export function BoardCard({ item, now, showStation, busy, onAdvance }: Props) {
  const minutes = elapsedMinutes(new Date(item.createdAt), new Date(now));
  const next = nextBoardStatus(item.status);
  const delivered = item.status === 'entregado';
  const station = STATIONS[item.station];
  return (
    <article
      data-testid="board-card"
      data-item-id={item.id}
      className={cn('rounded-xl border-l-8 bg-white p-3 shadow-sm @2xs:p-4', delivered && 'opacity-70')}
      style={{ borderLeftColor: station.color }}
    >
      <header className="flex flex-wrap items-start justify-between gap-x-2 gap-y-1">
        <div className="min-w-0">
          <p className="text-lg font-extrabold leading-tight text-slate-900">{tableLabel(item.tableNumber)}</p>
          {item.tableName && <p className="text-sm font-medium break-words text-slate-600">{item.tableName}</p>}
        </div>
        {delivered ? (
          <span className="flex shrink-0 items-center gap-1 rounded-full bg-slate-100 px-2 py-1 text-xs font-bold whitespace-nowrap tabular-nums text-slate-700 @2xs:text-sm">
            <CheckCheck className="h-4 w-4" aria-hidden />
            {t.board.deliveredAt(formatTime(item.updatedAt))}
          </span>
        ) : (
          <span
            className={cn('flex shrink-0 items-center gap-1 rounded-full px-2.5 py-1 text-sm font-bold tabular-nums', waitTone(minutes))}
          >
            <Clock className="h-4 w-4" aria-hidden />
            {/* Screen readers hear the full sentence; the short form is for the eye. */}
            <span aria-hidden>{t.board.waiting(minutes)}</span>
            <span className="sr-only">{t.board.waitingLabel(minutes)}</span>
          </span>
        )}
      </header>
      <div className="mt-3 flex items-baseline gap-3">
        <span className="shrink-0 rounded-lg bg-slate-900 px-2 py-1 text-lg font-black tabular-nums text-white @2xs:px-2.5 @2xs:text-xl">
          <span aria-hidden>{item.quantity}×</span>
          <span className="sr-only">{t.board.quantityLabel(item.quantity)}</span>
        </span>
        <p className="min-w-0 text-lg font-bold leading-snug break-words text-slate-900 @2xs:text-xl">{item.productName}</p>
      </div>
      {item.notes && (
        <p className="mt-3 flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-base font-semibold text-amber-900">
          <StickyNote className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span className="min-w-0 break-words">{item.notes}</span>
        </p>
      )}
      <p className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
        <span className="flex items-center gap-1">
          <User className="h-4 w-4" aria-hidden />
          {item.waiterName ?? t.tables.unassigned}
        </span>
        <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-semibold text-slate-700">{item.category}</span>
        {showStation && (
          <span className="rounded px-1.5 py-0.5 text-xs font-semibold text-slate-950" style={{ backgroundColor: station.color }}>
            {station.label}
          </span>
        )}
      </p>
      {next && onAdvance && (
        <button
          type="button"
          className={cn(
            'mt-4 flex h-14 w-full items-center justify-center rounded-xl text-lg font-bold shadow-sm transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:cursor-wait disabled:opacity-60',
            next === 'listo' ? 'bg-brand-500 text-slate-950 hover:bg-brand-600' : 'bg-emerald-600 text-white hover:bg-emerald-700',
          )}
          disabled={busy}
          onClick={() => onAdvance(item)}
        >
          {next === 'listo' ? t.board.markReady : t.board.markDelivered}
        </button>
      )}
    </article>
  );
}
