import { useEffect, useMemo, useRef, useState } from 'react';
import type { ItemStatus } from '@comanda/domain';
import { useLocation } from 'react-router';
import { toast } from 'sonner';
import { Bell, BellOff, ChefHat, Wine } from 'lucide-react';
import type { BoardItem, BoardStationFilter } from '@comanda/contract';
import { boardStationsForPath, mayMoveStationItems, nextBoardStatus, tableLabel, type Station } from '@comanda/domain';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { cn } from '../../components/ui/cn.ts';
import { errorMessage } from '../../lib/api.ts';
import { useBoardItems, useSetItemStatus } from '../../lib/board.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useSession } from '../../lib/session.ts';
import { BoardCard } from './board-card.tsx';
import { BoardColumn } from './board-column.tsx';
import { SoldOutButton } from './sold-out-sheet.tsx';
import { RECENT_LIMIT, RECENT_MS, RecentMoves, type RecentMove } from './recent-moves.tsx';
import { categoryCounts, shouldRing, splitColumns, ticketColumns, visibleItems, type BoardTicket } from './board-model.ts';
import { playNewOrderTone, useSoundPreference } from './sound.ts';
import { useNow } from '../../lib/use-now.ts';

const WAITING_REFRESH_MS = 30_000;
/** How long a moved ticket can be sent back with Deshacer. */
const UNDO_MS = 10_000;

function titleFor(stations: readonly Station[]): string {
  if (stations.length > 1) return t.board.titleBoth;
  return stations[0] === 'barra' ? t.board.titleBar : t.board.titleKitchen;
}

/** The kitchen and bar board: one screen for /kitchen/* and /admin/kanban*, the station from the path. */
export function BoardPage() {
  const { pathname } = useLocation();
  const role = useSession().data?.role;
  const stations = useMemo(() => boardStationsForPath(pathname), [pathname]);
  const filter: BoardStationFilter = stations.length > 1 ? 'all' : (stations[0] ?? 'cocina');
  const query = useBoardItems(filter, 'board');
  const deviceNow = useNow(WAITING_REFRESH_MS);
  const now = deviceNow + (query.data?.clockOffsetMs ?? 0);
  const items = useMemo(() => visibleItems(query.data?.items ?? [], stations, now), [query.data, stations, now]);
  // Counts (and the new-order sound) leave out voided lines still shown as CANCELADO.
  const columns = splitColumns(items.filter((i) => !i.cancelled));
  const tickets = useMemo(() => ticketColumns(items), [items]);
  const [soundOn, toggleSound] = useSoundPreference();
  const [rings, setRings] = useState(0);
  // One error toast however many lines of a ticket were refused.
  const setStatus = useSetItemStatus((error) =>
    toast.error(t.board.updateError, { id: 'board-error', description: errorMessage(error, '') || undefined }),
  );
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const undoToasts = useRef(new Map<string, string>());

  // Ring when the pending count rises on this board; never on the first load or a station switch.
  const lastPending = useRef<{ board: string; pending: number } | null>(null);
  const pending = query.data ? columns.pendientes.length : null;
  useEffect(() => {
    if (pending === null) return;
    const current = { board: filter, pending };
    if (shouldRing(lastPending.current, current) && soundOn) {
      playNewOrderTone();
      setRings((n) => n + 1);
    }
    lastPending.current = current;
  }, [filter, pending, soundOn]);

  // The last moves, to send back after the undo toast is gone ("Recientes").
  const [recent, setRecent] = useState<RecentMove[]>([]);
  const remember = (move: RecentMove) =>
    setRecent((list) => [move, ...list.filter((m) => move.at - m.at < RECENT_MS)].slice(0, RECENT_LIMIT));
  const revertRecent = (move: RecentMove) => {
    setRecent((list) => list.filter((m) => m.id !== move.id));
    void move.revert().then(() => toast.success(t.boardRecent.reverted));
  };

  /** Sets each line's status (the per-item route, in parallel); resolves to the lines that moved. */
  const move = async (changes: { item: BoardItem; status: ItemStatus }[]): Promise<{ item: BoardItem; status: ItemStatus }[]> => {
    const results = await Promise.allSettled(changes.map((change) => setStatus.mutateAsync(change)));
    return changes.filter((_, i) => results[i]?.status === 'fulfilled');
  };

  /**
   * One tap moves the whole ticket (or, from a line's own target, just that line); a 10 s toast
   * offers to undo a mistaken Listo or Entregado. Voided lines (shown as cancelled) never move.
   */
  const advance = (ticket: BoardTicket, lines: BoardItem[] = ticket.items) => {
    const changes = lines.flatMap((item) => {
      const status = item.cancelled ? null : nextBoardStatus(item.status);
      return status ? [{ item, status }] : [];
    });
    if (changes.length === 0) return;
    // A ticket's previous undo offer ends now: Deshacer only ever reverts the latest move. (A
    // fresh id each move: sonner would keep a dismissed id dismissed.)
    const previousToast = undoToasts.current.get(ticket.key);
    if (previousToast !== undefined) toast.dismiss(previousToast);
    const toastId = `board-undo-${ticket.key}-${Date.now()}`;
    undoToasts.current.set(ticket.key, toastId);
    setBusy((s) => new Set(s).add(ticket.key));
    void move(changes).then((moved) => {
      setBusy((s) => {
        const next = new Set(s);
        next.delete(ticket.key);
        return next;
      });
      if (moved.length === 0) return;
      const status = moved[0]!.status;
      const statusName = t.board.statusNames[status as 'listo' | 'entregado'];
      const label = t.board.moved(tableLabel(ticket.tableNumber), moved.length, statusName);
      const revert = async () => void (await move(moved.map(({ item }) => ({ item, status: item.status }))));
      remember({
        id: toastId,
        label: t.boardRecent.entry(tableLabel(ticket.tableNumber), moved.length, statusName),
        at: Date.now(),
        revert,
      });
      toast.success(label, {
        id: toastId,
        duration: UNDO_MS,
        // Bottom right, over the compact Entregados column: at the top it covered the category counters.
        position: 'bottom-right',
        action: {
          label: t.board.undo,
          onClick: () => {
            setRecent((list) => list.filter((m) => m.id !== toastId));
            void revert();
          },
        },
      });
    });
  };
  const card = (column: 'pending' | 'ready' | 'delivered') => (ticket: BoardTicket) => (
    <BoardCard
      key={ticket.key}
      ticket={ticket}
      column={column}
      now={now}
      showStation={stations.length > 1}
      busy={busy.has(ticket.key)}
      onAdvance={mayMoveStationItems(role, ticket.station) ? advance : null}
    />
  );
  const StationIcon = stations.length === 1 && stations[0] === 'barra' ? Wine : ChefHat;

  return (
    <div className="@container flex flex-col gap-3">
      {/* Title, sound toggle and counters share one row (the height goes to the tickets); the toggle
          sits left, where a toast at the top right never covers it. */}
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="flex items-center gap-2 text-2xl font-extrabold text-slate-900">
          <StationIcon className="h-7 w-7" aria-hidden />
          {titleFor(stations)}
        </h1>
        <button
          type="button"
          onClick={toggleSound}
          aria-pressed={soundOn}
          data-rings={rings}
          className={cn(
            'flex h-12 items-center gap-2 rounded-xl px-4 text-base font-bold shadow-sm',
            soundOn ? 'bg-emerald-700 text-white' : 'border border-slate-300 bg-white text-slate-800',
          )}
        >
          {soundOn ? <Bell className="h-5 w-5" aria-hidden /> : <BellOff className="h-5 w-5" aria-hidden />}
          {soundOn ? t.board.soundOn : t.board.soundOff}
        </button>
        <SoldOutButton role={role} stations={stations} />
        <ul aria-label={t.board.categoryCounters} className="flex flex-1 flex-wrap gap-2">
          {categoryCounts(items, stations).map(({ category, count }) => (
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
            top={recent.length > 0 ? <RecentMoves moves={recent} onRevert={revertRecent} /> : null}
          >
            {tickets.entregados.map(card('delivered'))}
          </BoardColumn>
        </div>
      )}
    </div>
  );
}
