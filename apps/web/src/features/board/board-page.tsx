import { Bell, BellOff, ChefHat, Wine } from 'lucide-react';
import { mayMoveStationItems } from '@comanda/domain';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { cn } from '../../components/ui/cn.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { BoardCard } from './board-card.tsx';
import { BoardColumn } from './board-column.tsx';
import { SoldOutButton } from './sold-out-sheet.tsx';
import { RecentMoves } from './recent-moves.tsx';
import type { BoardTicket } from './board-model.ts';
import { useBoardPage, type BoardPageState } from './use-board-page.ts';

/** The kitchen and bar board: one screen for /kitchen/* and /admin/kanban*, the station from the path. */
export function BoardPage() {
  const b = useBoardPage();
  const { query, columns, tickets, stations } = b;
  const card = (column: 'pending' | 'ready' | 'delivered') => (ticket: BoardTicket) => (
    <BoardCard
      key={ticket.key}
      ticket={ticket}
      column={column}
      now={b.now}
      showStation={stations.length > 1}
      busy={b.busy.has(ticket.key)}
      onAdvance={mayMoveStationItems(b.role, ticket.station) ? b.advance : null}
    />
  );

  return (
    <div className="@container flex flex-col gap-3">
      <BoardHeader b={b} />
      {query.isPending ? (
        <Spinner />
      ) : query.isError ? (
        <ErrorState message={t.board.loadError} onRetry={() => void query.refetch()} retryLabel={t.app.retry} />
      ) : (
        // Pendientes gets half the width (two ticket columns inside from 28rem), Listos and the
        // compact Entregados a quarter each: at 1024×768 four 3-line tickets fit without scrolling.
        <div className="grid gap-3 @2xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
          <BoardColumn title={t.board.pending} count={columns.pendientes.length} tone="pending" empty={t.board.emptyPending} wide>
            {tickets.pendientes.map(card('pending'))}
          </BoardColumn>
          <BoardColumn title={t.board.ready} count={columns.listos.length} tone="ready" empty={t.board.emptyReady}>
            {tickets.listos.map(card('ready'))}
          </BoardColumn>
          <BoardColumn
            title={t.board.delivered}
            count={columns.entregados.length}
            tone="delivered"
            empty={t.board.emptyDelivered}
            note={t.board.deliveredNote}
            top={b.recent.length > 0 ? <RecentMoves moves={b.recent} onRevert={b.revertRecent} /> : null}
          >
            {tickets.entregados.map(card('delivered'))}
          </BoardColumn>
        </div>
      )}
    </div>
  );
}

/**
 * Title, sound toggle and counters share one row (the height goes to the tickets); the toggle
 * sits left, where a toast at the top right never covers it.
 */
function BoardHeader({ b }: { b: BoardPageState }) {
  const StationIcon = b.stations.length === 1 && b.stations[0] === 'barra' ? Wine : ChefHat;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <h1 className="flex items-center gap-2 text-2xl font-extrabold text-slate-900">
        <StationIcon className="h-7 w-7" aria-hidden />
        {b.title}
      </h1>
      <button
        type="button"
        onClick={b.toggleSound}
        aria-pressed={b.soundOn}
        data-rings={b.rings}
        className={cn(
          'flex h-12 items-center gap-2 rounded-xl px-4 text-base font-bold shadow-sm',
          b.soundOn ? 'bg-emerald-700 text-white' : 'border border-slate-300 bg-white text-slate-800',
        )}
      >
        {b.soundOn ? <Bell className="h-5 w-5" aria-hidden /> : <BellOff className="h-5 w-5" aria-hidden />}
        {b.soundOn ? t.board.soundOn : t.board.soundOff}
      </button>
      <SoldOutButton role={b.role} stations={b.stations} />
      <ul aria-label={t.board.categoryCounters} className="flex flex-1 flex-wrap gap-2">
        {b.counts.map(({ category, count }) => (
          <li
            key={category}
            data-testid="category-counter"
            className={cn(
              'flex items-center gap-2 rounded-full px-3 py-1.5 text-sm font-semibold',
              count > 0 ? 'bg-slate-900 text-white' : 'bg-white text-slate-600',
            )}
          >
            {category}
            <span
              className={cn(
                'rounded-full px-2 text-xs font-black tabular-nums',
                count > 0 ? 'bg-brand-500 text-slate-950' : 'bg-slate-100 text-slate-700',
              )}
            >
              {count}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
