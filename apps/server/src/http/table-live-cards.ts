import type { TableLiveCard } from '@comanda/contract';
import type { Trx } from '../db/trx.ts';

/** The event types on 'tables' that are about one table, its id in `id`. */
const TABLE_LEVEL = new Set(['table.created', 'table.updated', 'table.released']);

interface PendingEvent {
  topic: string;
  type: string;
  id?: string;
  owner?: string | null;
  table?: TableLiveCard;
  changedOrdersOf?: string | null;
}

/** Whether the event is a table-level one every waiter hears (no order owner to filter by). */
function needsTableCard(e: PendingEvent): boolean {
  return e.topic === 'tables' && e.owner === undefined && e.id !== undefined && TABLE_LEVEL.has(e.type);
}

/**
 * Stamps each table-level 'tables' event with the table's public state as this transaction leaves
 * it (run last, before commit): two reads by primary key and index for all of them, in place of
 * one full read of every table by each phone that hears the event. An id that is not a table (or a
 * table deleted since) gets no card, and phones read again as before.
 */
export async function attachTableCards(trx: Trx, events: PendingEvent[]): Promise<void> {
  const wanting = events.filter(needsTableCard);
  // Whose orders the change touched travels in the card, never as a field of its own.
  const changedOrdersOf = new Map<PendingEvent, string>();
  for (const e of events) {
    if (e.changedOrdersOf && needsTableCard(e)) changedOrdersOf.set(e, e.changedOrdersOf);
    delete e.changedOrdersOf;
  }
  if (wanting.length === 0) return;
  const ids = [...new Set(wanting.map((e) => e.id!))];
  const [rows, orders] = await Promise.all([
    trx.selectFrom('tables').select(['id', 'number', 'status', 'waiter_id', 'waiter_name', 'updated_at']).where('id', 'in', ids).execute(),
    trx.selectFrom('orders').select(['table_id', 'waiter_id']).where('table_id', 'in', ids).where('status', '=', 'activo').execute(),
  ]);
  const waitersOf = (tableId: string) =>
    [...new Set(orders.filter((o) => o.table_id === tableId && o.waiter_id).map((o) => o.waiter_id!))].sort();
  const cards = new Map<string, TableLiveCard>(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        number: r.number,
        status: r.status,
        waiterId: r.waiter_id,
        waiterName: r.waiter_name,
        updatedAt: Number(r.updated_at),
        orderWaiters: waitersOf(r.id),
      },
    ]),
  );
  for (const e of wanting) {
    const card = cards.get(e.id!);
    const only = changedOrdersOf.get(e);
    if (card) e.table = only ? { ...card, changedOrdersOf: only } : card;
  }
}
