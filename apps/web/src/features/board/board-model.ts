import type { BoardItem } from '@comanda/contract';
import {
  boardColumn,
  categoriesOf,
  compareByCreatedAt,
  isShownOnBoard,
  isVoidShownOnBoard,
  type BoardColumn,
  type Station,
} from '@comanda/domain';

/**
 * What a board shows at `now` (server time): its stations' items, delivered ones only within the
 * retention window, oldest first. The server filters too; this keeps an idle screen honest.
 */
export function visibleItems(items: readonly BoardItem[], stations: readonly Station[], now: number): BoardItem[] {
  const at = new Date(now);
  return (
    items
      .filter((i) => stations.includes(i.station) && isShownOnBoard({ status: i.status, updatedAt: new Date(i.updatedAt) }, at))
      // A voided item (CANCELADO) leaves a few minutes after its void, which was its last change.
      .filter((i) => !i.cancelled || isVoidShownOnBoard({ status: i.status, deletedAt: i.updatedAt }, now))
      .sort((a, b) => compareByCreatedAt({ createdAt: new Date(a.createdAt) }, { createdAt: new Date(b.createdAt) }))
  );
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
    if (item.status === 'entregado' || item.cancelled) continue;
    counts.set(item.category, (counts.get(item.category) ?? 0) + 1);
  }
  return [...counts].map(([category, count]) => ({ category, count }));
}

/** The new-order sound rings only when the pending count rises after a first load of the same board. */
export function shouldRing(previous: { board: string; pending: number } | null, next: { board: string; pending: number }): boolean {
  return previous !== null && previous.board === next.board && next.pending > previous.pending;
}

/**
 * A ticket: the lines one station prepares from one add batch of one order. A batch is what a
 * waiter sends at once: the order's items taken oldest first, a new batch starting whenever an
 * item was added more than BATCH_GAP_MS after the previous one. Items carry no "added by", and an
 * order has one waiter, so "one waiter" is the order's waiter. Batches are computed over all the
 * order's items on the board (every status), so a ticket keeps its identity as its lines move;
 * a column shows each ticket's lines that are in that column.
 */
export const BATCH_GAP_MS = 60_000;

export interface BoardTicket {
  key: string;
  orderId: string;
  station: BoardItem['station'];
  tableNumber: number;
  tableName: string | null;
  waiterName: string | null;
  /** When the batch's first line (in this column) was added. */
  createdAt: number;
  /** The latest change of any of its lines (the delivered time). */
  updatedAt: number;
  items: BoardItem[];
}

/** Batch key of each item: `${orderId}:${id of the batch's first item}`. */
export function batchKeys(items: readonly BoardItem[]): Map<string, string> {
  const byOrder = new Map<string, BoardItem[]>();
  for (const item of items) byOrder.set(item.orderId, [...(byOrder.get(item.orderId) ?? []), item]);
  const keys = new Map<string, string>();
  for (const [orderId, list] of byOrder) {
    const sorted = [...list].sort((a, b) => a.createdAt - b.createdAt);
    let key = '';
    let last = -Infinity;
    for (const item of sorted) {
      const at = item.createdAt;
      if (at - last > BATCH_GAP_MS) key = `${orderId}:${item.id}`;
      last = at;
      keys.set(item.id, key);
    }
  }
  return keys;
}

/** The three columns as tickets, oldest first; the lines keep the board's order. */
export function ticketColumns(items: readonly BoardItem[]): Record<BoardColumn, BoardTicket[]> {
  const batches = batchKeys(items);
  const columns: Record<BoardColumn, BoardTicket[]> = { pendientes: [], listos: [], entregados: [] };
  const open = new Map<string, BoardTicket>();
  for (const item of items) {
    const column = boardColumn(item.status);
    const key = `${batches.get(item.id)}:${item.station}`;
    const slot = `${column}|${key}`;
    let ticket = open.get(slot);
    if (!ticket) {
      ticket = {
        key,
        orderId: item.orderId,
        station: item.station,
        tableNumber: item.tableNumber,
        tableName: item.tableName,
        waiterName: item.waiterName,
        createdAt: item.createdAt,
        updatedAt: item.updatedAt,
        items: [],
      };
      open.set(slot, ticket);
      columns[column].push(ticket);
    }
    ticket.items.push(item);
    ticket.createdAt = Math.min(ticket.createdAt, item.createdAt);
    ticket.updatedAt = Math.max(ticket.updatedAt, item.updatedAt);
  }
  for (const list of Object.values(columns)) list.sort((a, b) => a.createdAt - b.createdAt);
  // Delivered: the latest hand-outs first, the column is a short "what just left" log.
  columns.entregados.sort((a, b) => b.updatedAt - a.updatedAt);
  return columns;
}
