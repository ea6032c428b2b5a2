import type { BoardItem } from '@comanda/contract';
import { compareByCreatedAt, type BoardStatus, type Station } from '@comanda/domain';

export type AreaFilter = 'all' | Station;
export type StatusFilter = 'all' | BoardStatus;

/** The panel knows three states; en_preparacion (never set by these screens) counts as pending. */
export function panelStatus(item: Pick<BoardItem, 'status'>): BoardStatus {
  return item.status === 'en_preparacion' ? 'pendiente' : item.status;
}

export function filterPanelItems(items: readonly BoardItem[], area: AreaFilter, status: StatusFilter): BoardItem[] {
  return items
    .filter((i) => (area === 'all' || i.station === area) && (status === 'all' || panelStatus(i) === status))
    .sort((a, b) => compareByCreatedAt({ createdAt: new Date(a.createdAt) }, { createdAt: new Date(b.createdAt) }));
}

export function panelCounters(items: readonly BoardItem[], area: AreaFilter): Record<BoardStatus, number> {
  const counts: Record<BoardStatus, number> = { pendiente: 0, listo: 0, entregado: 0 };
  for (const item of items) if (area === 'all' || item.station === area) counts[panelStatus(item)] += 1;
  return counts;
}
