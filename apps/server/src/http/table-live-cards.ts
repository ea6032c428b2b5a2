import { tableLiveCard, type TableLiveCard } from '@comanda/contract';
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
 * one full read of every table by each phone that hears the event. An event may come with its
 * card already made from the rows its command holds (a close frees the table with an UPDATE that
 * returns it): that card is used when the event is the transaction's last one about its table,
 * and nothing is read for it. An id that is not a table (or a table deleted since) gets no card,
 * and phones read again as before.
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
  // The last word on each table: a card made by its command, or undefined (read it).
  const last = new Map<string, TableLiveCard | undefined>();
  for (const e of wanting) last.set(e.id!, e.table);
  const ids = [...last].filter(([, card]) => card === undefined).map(([id]) => id);
  const cards = new Map<string, TableLiveCard>();
  for (const [id, card] of last) if (card) cards.set(id, card);
  if (ids.length > 0) for (const card of await readCards(trx, ids)) cards.set(card.id, card);
  for (const e of wanting) {
    const card = cards.get(e.id!);
    const only = changedOrdersOf.get(e);
    if (card) e.table = only ? { ...card, changedOrdersOf: only } : card;
    else delete e.table;
  }
}

async function readCards(trx: Trx, ids: string[]): Promise<TableLiveCard[]> {
  const [rows, orders] = await Promise.all([
    trx.selectFrom('tables').select(['id', 'number', 'status', 'waiter_id', 'waiter_name', 'updated_at']).where('id', 'in', ids).execute(),
    trx.selectFrom('orders').select(['table_id', 'waiter_id']).where('table_id', 'in', ids).where('status', '=', 'activo').execute(),
  ]);
  return rows.map((r) =>
    tableLiveCard(
      r,
      orders.filter((o) => o.table_id === r.id).map((o) => o.waiter_id),
    ),
  );
}
