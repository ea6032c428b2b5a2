import type { BoardItem, BoardQuery } from '@comanda/contract';
import { DELIVERED_RETENTION_MS, VOID_BOARD_RETENTION_MS } from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';
import { presentBoardLine } from '../../model/orders/board-lines.ts';

/** What a board line shows of its item and order: the live lines and the voided ones alike. */
const BOARD_COLUMNS = [
  'i.id',
  'i.order_id',
  'o.table_id',
  'o.table_number',
  'o.table_name',
  'o.waiter_name',
  'i.product_name',
  'i.quantity',
  'i.notes',
  'i.modifiers',
  'i.category',
  'i.station',
  'i.status',
  'i.created_at',
  'i.updated_at',
] as const;

/**
 * Items of active orders for the kitchen and bar boards, oldest first. Deleted items never
 * show (recent voids with a reason only as CANCELADO, on the boards); delivered ones only while younger than the retention window (SPEC §9), unless the
 * admin panel asks for every item of the open orders.
 */
export async function listBoardItems(db: Trx, query: BoardQuery, now: number): Promise<BoardItem[]> {
  let q = db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .where('o.status', '=', 'activo')
    .where('i.is_deleted', '=', 0)
    .select(BOARD_COLUMNS)
    .orderBy('i.created_at')
    .orderBy('i.id');
  if (query.station !== 'all') q = q.where('i.station', '=', query.station);
  if (query.view === 'board') {
    const deliveredSince = now - DELIVERED_RETENTION_MS;
    q = q.where((eb) => eb.or([eb('i.status', '!=', 'entregado'), eb('i.updated_at', '>', deliveredSince)]));
  }
  // Two reads at once: on PostgreSQL, outside a transaction, each on a connection of its own.
  const [live, voids] = await Promise.all([q.execute(), query.view === 'board' ? recentVoids(db, query, now) : []]);
  const rows: ((typeof live)[number] & { void_reason?: string | null })[] = [...live];
  // Each void goes in by creation time, next to the line it was split from.
  for (const v of voids) {
    const at = rows.findIndex((r) => Number(r.created_at) > Number(v.created_at));
    rows.splice(at === -1 ? rows.length : at, 0, v);
  }
  return rows.map(presentBoardLine);
}

/**
 * Voids with a reason of the last few minutes, shown as CANCELADO so the station
 * stops making them, also when the whole order was cancelled; never one already delivered.
 * SPEC deletes (no reason) never show. Read by the deleted_at index, apart from the live items.
 */
async function recentVoids(db: Trx, query: BoardQuery, now: number) {
  let q = db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .where('i.deleted_at', '>', now - VOID_BOARD_RETENTION_MS)
    .where('i.is_deleted', '=', 1)
    .where('i.void_reason', 'is not', null)
    .where('i.status', '!=', 'entregado')
    .where('o.status', 'in', ['activo', 'cancelado'])
    .select([...BOARD_COLUMNS, 'i.void_reason']);
  if (query.station !== 'all') q = q.where('i.station', '=', query.station);
  return q.execute();
}
