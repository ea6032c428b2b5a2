import type { BoardItem } from '@comanda/contract';
import type { OrderItemRow, OrderRow } from '../../db/schema.ts';
import { readModifiers } from '../modifiers/modifier-store.ts';

/** A board line's row: the item's columns with its order's table and waiter (BOARD_COLUMNS), and a void's reason. */
export type BoardRow = Pick<
  OrderItemRow,
  'id' | 'order_id' | 'product_name' | 'quantity' | 'notes' | 'modifiers' | 'category' | 'station' | 'status' | 'created_at' | 'updated_at'
> &
  BoardOrderFields & { void_reason?: string | null };

/** One line as the boards show it. */
export function presentBoardLine(r: BoardRow): BoardItem {
  return {
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
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    ...(r.void_reason ? { cancelled: true, voidReason: r.void_reason } : {}),
    // Only on lines with options: a plain line's card reads as before.
    ...(r.modifiers ? { modifiers: readModifiers(r.modifiers) } : {}),
  };
}

/** The order's fields a board line shows. */
export type BoardOrderFields = Pick<OrderRow, 'table_id' | 'table_number' | 'table_name' | 'waiter_name'>;

/**
 * A live line as GET /api/board shows it, from rows a write already holds: what its board event
 * carries (BoardLiveChange), so boards patch instead of reading every line again.
 */
export function boardLineOf(order: BoardOrderFields, item: OrderItemRow): BoardItem {
  return presentBoardLine({
    ...item,
    table_id: order.table_id,
    table_number: order.table_number,
    table_name: order.table_name,
    waiter_name: order.waiter_name,
    void_reason: null,
  });
}
