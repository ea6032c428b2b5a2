import type { BoardItem, BoardQuery } from '@comanda/contract';
import { DELIVERED_RETENTION_MS } from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';

/**
 * Items of active orders for the kitchen and bar boards, oldest first. Deleted items never
 * show; delivered ones only while younger than the retention window (SPEC §9), unless the
 * admin panel asks for every item of the open orders.
 */
export async function listBoardItems(db: Trx, query: BoardQuery, now: number): Promise<BoardItem[]> {
  let q = db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .where('o.status', '=', 'activo')
    .where('i.is_deleted', '=', 0)
    .select([
      'i.id',
      'i.order_id',
      'o.table_id',
      'o.table_number',
      'o.table_name',
      'o.waiter_name',
      'i.product_name',
      'i.quantity',
      'i.notes',
      'i.category',
      'i.station',
      'i.status',
      'i.created_at',
      'i.updated_at',
    ])
    .orderBy('i.created_at')
    .orderBy('i.id');
  if (query.station !== 'all') q = q.where('i.station', '=', query.station);
  if (query.view === 'board') {
    const deliveredSince = now - DELIVERED_RETENTION_MS;
    q = q.where((eb) => eb.or([eb('i.status', '!=', 'entregado'), eb('i.updated_at', '>', deliveredSince)]));
  }
  const rows = await q.execute();
  return rows.map((r) => ({
    id: r.id,
    orderId: r.order_id,
    tableId: r.table_id,
    tableNumber: r.table_number,
    tableName: r.table_name,
    waiterName: r.waiter_name,
    productName: r.product_name,
    quantity: r.quantity,
    notes: r.notes,
    category: r.category,
    station: r.station,
    status: r.status,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}
