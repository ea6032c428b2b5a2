import { compareTables } from '@comanda/domain';
import type { LiveEventOf, TableLiveCard } from './live-events.ts';
import type { Table } from './tables.ts';

/** A table's row, in its own names, as far as every card of it (the list's, the live one) shows it. */
export interface TablePublicRow {
  id: string;
  number: number;
  status: TableLiveCard['status'];
  waiter_id: string | null;
  waiter_name: string | null;
  updated_at: number | string | bigint;
}

/** What every card of a table shows of its row: the list's card (`presentTable`) and the live one. */
export function tablePublicFields(
  row: TablePublicRow,
): Pick<TableLiveCard, 'id' | 'number' | 'status' | 'waiterId' | 'waiterName' | 'updatedAt'> {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    waiterId: row.waiter_id,
    waiterName: row.waiter_name,
    updatedAt: Number(row.updated_at),
  };
}

/** A table's live card from its row and the waiters of its active orders. */
export function tableLiveCard(row: TablePublicRow, orderWaiters: readonly (string | null)[]): TableLiveCard {
  return {
    ...tablePublicFields(row),
    orderWaiters: [...new Set(orderWaiters.filter((w): w is string => w !== null))].sort(),
  };
}

/** Who holds the list: the session's user. */
export interface TableListViewer {
  id: string;
  role: string;
}

/** Whether the cached card shows anything that only its own waiter (or an admin) sees. */
function showsOwnWork(card: Table, me: TableListViewer): boolean {
  return card.waiterId === me.id || card.currentOrderId !== null || card.order !== null || (card.extraOrders?.length ?? 0) > 0;
}

/**
 * A waiter's table list after a 'tables' event, patched from the event alone, or null when it must
 * be read again. Only another waiter's table is patched: the event's public state (id, number,
 * status, waiter, time) is all a waiter's list shows of it, exactly as GET /api/tables answers.
 * Anything about the waiter's own work — their table, an order of theirs on it, a card that showed
 * one — and every admin's list is read again, as is an event without the table's state. When the
 * event says the change touched only another waiter's orders (`changedOrdersOf`), a waiter's own
 * summaries on that table are kept and the rest is patched: a tab opened or paid at the bar does
 * not send every waiter with a tab there to read the whole list at the same moment.
 * The web's table list, the night benchmark's phones and the server's tests all use this one rule.
 */
export function patchTablesFromEvent(
  cached: Table[] | undefined,
  event: LiveEventOf<'tables'>,
  me: TableListViewer | null | undefined,
): Table[] | null {
  if (!cached || !me || me.role !== 'waiter' || !event.id) return null;
  const index = cached.findIndex((t) => t.id === event.id);
  const old = index >= 0 ? cached[index]! : null;
  const card = event.table;
  // Only another waiter's orders changed, on a table that is not mine: my own summaries on it (a
  // tab of mine at the bar) are as I hold them, so only the public part needs the event.
  const mineUntouched =
    old !== null &&
    card?.id === event.id &&
    card.changedOrdersOf !== undefined &&
    card.changedOrdersOf !== me.id &&
    old.waiterId !== me.id &&
    card.waiterId !== me.id;
  if (old && showsOwnWork(old, me) && !mineUntouched) return null;
  if (event.type === 'table.deleted') return old ? cached.filter((t) => t.id !== event.id) : cached;
  if (!card || card.id !== event.id) return null;
  if (card.waiterId === me.id || (card.orderWaiters.includes(me.id) && !mineUntouched)) return null;
  if (old && old.updatedAt > card.updatedAt) return cached; // an older state arriving late
  const next: Table = {
    id: card.id,
    number: card.number,
    status: card.status,
    waiterId: card.waiterId,
    waiterName: card.waiterName,
    currentOrderId: null,
    updatedAt: card.updatedAt,
    order: mineUntouched ? old.order : null,
    extraOrders: mineUntouched ? old.extraOrders : [],
  };
  const list = old ? cached.map((t, i) => (i === index ? next : t)) : [...cached, next];
  return old ? list : list.sort(compareTables);
}
