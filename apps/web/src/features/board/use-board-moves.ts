import { useRef, useState } from 'react';
import { toast } from 'sonner';
import type { BoardItem } from '@comanda/contract';
import { nextBoardStatus, tableLabel, type ItemStatus } from '@comanda/domain';
import { errorMessage } from '../../lib/api.ts';
import { useSetItemStatus } from '../../lib/board.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { RECENT_LIMIT, RECENT_MS, type RecentMove } from './recent-moves.tsx';
import type { BoardTicket } from './board-model.ts';

/** How long a moved ticket can be sent back with Deshacer. */
const UNDO_MS = 10_000;

type Change = { item: BoardItem; status: ItemStatus };

/** The board's moves: a ticket (or a line) to its next status, the undo toast, and the recent moves to send back. */
export function useBoardMoves() {
  // One error toast however many lines of a ticket were refused.
  const setStatus = useSetItemStatus((error) =>
    toast.error(t.board.updateError, { id: 'board-error', description: errorMessage(error, '') || undefined }),
  );
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const undoToasts = useRef(new Map<string, string>());

  // The last moves, to send back after the undo toast is gone ("Recientes").
  const [recent, setRecent] = useState<RecentMove[]>([]);
  const remember = (move: RecentMove) =>
    setRecent((list) => [move, ...list.filter((m) => move.at - m.at < RECENT_MS)].slice(0, RECENT_LIMIT));
  const forget = (id: string) => setRecent((list) => list.filter((m) => m.id !== id));
  const revertRecent = (move: RecentMove) => {
    forget(move.id);
    void move.revert().then(() => toast.success(t.boardRecent.reverted));
  };

  /** Sets each line's status (the per-item route, in parallel); resolves to the lines that moved. */
  const move = async (changes: Change[]): Promise<Change[]> => {
    const results = await Promise.allSettled(changes.map((change) => setStatus.mutateAsync(change)));
    return changes.filter((_, i) => results[i]?.status === 'fulfilled');
  };

  const done = (key: string) =>
    setBusy((s) => {
      const next = new Set(s);
      next.delete(key);
      return next;
    });

  /** What a move that went through leaves: a recent move, and a toast that offers to undo it. */
  const offerUndo = (ticket: BoardTicket, toastId: string, moved: Change[]) => {
    const statusName = t.board.statusNames[moved[0]!.status as 'listo' | 'entregado'];
    const revert = async () => void (await move(moved.map(({ item }) => ({ item, status: item.status }))));
    remember({ id: toastId, label: t.boardRecent.entry(tableLabel(ticket.tableNumber), moved.length, statusName), at: Date.now(), revert });
    toast.success(t.board.moved(tableLabel(ticket.tableNumber), moved.length, statusName), {
      id: toastId,
      duration: UNDO_MS,
      // Bottom right, over the compact Entregados column: at the top it covered the category counters.
      position: 'bottom-right',
      action: {
        label: t.board.undo,
        onClick: () => {
          forget(toastId);
          void revert();
        },
      },
    });
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
      done(ticket.key);
      if (moved.length > 0) offerUndo(ticket, toastId, moved);
    });
  };

  return { busy, recent, revertRecent, advance };
}
