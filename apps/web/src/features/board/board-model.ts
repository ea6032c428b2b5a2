import type { BoardItem } from '@comanda/contract';
import { boardColumn, categoriesOf, compareByCreatedAt, isShownOnBoard, type BoardColumn, type Station } from '@comanda/domain';

/**
 * What a board shows at `now` (server time): its stations' items, delivered ones only within the
 * retention window, oldest first. The server filters too; this keeps an idle screen honest.
 */
export function visibleItems(items: readonly BoardItem[], stations: readonly Station[], now: number): BoardItem[] {
  const at = new Date(now);
  return items
    .filter((i) => stations.includes(i.station) && isShownOnBoard({ status: i.status, updatedAt: new Date(i.updatedAt) }, at))
    .sort((a, b) => compareByCreatedAt({ createdAt: new Date(a.createdAt) }, { createdAt: new Date(b.createdAt) }));
}

export function splitColumns(items: readonly BoardItem[]): Record<BoardColumn, BoardItem[]> {
  const columns: Record<BoardColumn, BoardItem[]> = { pendientes: [], listos: [], entregados: [] };
  for (const item of items) columns[boardColumn(item.status)].push(item);
  return columns;
}

/**
 * Items still to hand out (pending or ready) per category: every category of the shown
 * stations, zeros included so the row does not jump, plus any hand-typed category in use.
 */
export function categoryCounts(items: readonly BoardItem[], stations: readonly Station[]): { category: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const station of stations) for (const c of categoriesOf(station)) counts.set(c, 0);
  for (const item of items) {
    if (item.status === 'entregado') continue;
    counts.set(item.category, (counts.get(item.category) ?? 0) + 1);
  }
  return [...counts].map(([category, count]) => ({ category, count }));
}

/** The new-order sound rings only when the pending count rises after a first load of the same board. */
export function shouldRing(previous: { board: string; pending: number } | null, next: { board: string; pending: number }): boolean {
  return previous !== null && previous.board === next.board && next.pending > previous.pending;
}
