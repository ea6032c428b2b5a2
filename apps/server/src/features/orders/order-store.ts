import { sql } from 'kysely';
import type { Order, OrderItem, Payment } from '@comanda/contract';
import { bpsToFraction } from '@comanda/domain';
import type { OrderItemRow, OrderRow, PaymentRow } from '../../db/schema.ts';
import type { Emit, Trx } from '../../http/transaction.ts';
import { conflict, notFound } from '../../http/errors.ts';

export const ORDER_NOT_FOUND = 'Orden no encontrada';
export const ORDER_CLOSED = 'La orden ya fue cerrada y no se puede modificar';

export function presentItem(row: OrderItemRow): OrderItem {
  return {
    id: row.id,
    productId: row.product_id,
    productName: row.product_name,
    productPrice: row.product_price,
    quantity: row.quantity,
    status: row.status,
    category: row.category,
    station: row.station,
    notes: row.notes,
    isDeleted: row.is_deleted === 1,
    deletedBy: row.deleted_by,
    deletedByName: row.deleted_by_name,
    deletedAt: row.deleted_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function presentPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    method: row.method,
    amount: row.amount,
    receivedAmount: row.received_amount,
    change: row.change_amount,
    tipAmount: row.tip_amount,
    tipPercent: bpsToFraction(row.tip_bps),
    cashierId: row.cashier_id,
    cashierName: row.cashier_name,
    providerPaymentId: row.provider_payment_id,
    createdAt: row.created_at,
  };
}

export function presentOrder(row: OrderRow, items: OrderItemRow[], payments: PaymentRow[]): Order {
  return {
    id: row.id,
    tableId: row.table_id,
    tableNumber: row.table_number,
    tableName: row.table_name,
    waiterId: row.waiter_id,
    waiterName: row.waiter_name,
    items: items.map(presentItem),
    status: row.status,
    paymentMethod: row.payment_method,
    peopleCount: row.people_count,
    adminComments: row.admin_comments,
    subtotal: row.subtotal,
    tip: row.tip,
    total: row.total,
    tax: null,
    payments: payments.map(presentPayment),
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
  };
}

export async function findOrderRow(db: Trx, orderId: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
}

/** The order with its items (oldest first) and payments, or 'Orden no encontrada'. */
export async function loadOrder(db: Trx, orderId: string): Promise<Order> {
  const row = await findOrderRow(db, orderId);
  if (!row) throw notFound(ORDER_NOT_FOUND);
  const [items, payments] = await Promise.all([
    db.selectFrom('order_items').selectAll().where('order_id', '=', orderId).orderBy('created_at').orderBy('id').execute(),
    db.selectFrom('payments').selectAll().where('order_id', '=', orderId).execute(),
  ]);
  return presentOrder(row, items, payments);
}

/** Throws unless the order exists and is still activo: paid and cancelled orders never change. */
export async function requireOpenOrder(db: Trx, orderId: string): Promise<OrderRow> {
  const row = await findOrderRow(db, orderId);
  if (!row) throw notFound(ORDER_NOT_FOUND);
  if (row.status !== 'activo') throw conflict(ORDER_CLOSED, 'order_closed');
  return row;
}

/**
 * Recomputes the stored subtotal from the item rows and bumps the version, in SQL, inside the
 * caller's transaction: concurrent item changes can never leave a stale total behind.
 * Only an activo order is touched; returns the new version.
 */
export async function touchOrder(db: Trx, orderId: string, now: number): Promise<number> {
  const subtotal = sql<number>`(SELECT COALESCE(SUM(product_price * quantity), 0) FROM order_items WHERE order_id = ${orderId} AND is_deleted = 0)`;
  const row = await db
    .updateTable('orders')
    .set({ subtotal, total: subtotal, version: sql<number>`version + 1`, updated_at: now })
    .where('id', '=', orderId)
    .where('status', '=', 'activo')
    .returning(['version'])
    .executeTakeFirst();
  if (!row) throw conflict(ORDER_CLOSED, 'order_closed');
  return Number(row.version);
}

/**
 * The live events of a changed order: its own topic, the lists, and the boards when items moved.
 * `owner` is the order's waiter: of the waiters, only they hear these events (the live hub filters).
 */
export function emitOrderChanged(
  emit: Emit,
  orderId: string,
  version: number,
  opts: { owner: string | null; board?: boolean; tables?: boolean },
): void {
  const owner = opts.owner;
  emit({ topic: `order:${orderId}`, type: 'order.updated', id: orderId, version, owner });
  emit({ topic: 'orders', type: 'order.updated', id: orderId, version, owner });
  if (opts.tables !== false) emit({ topic: 'tables', type: 'table.updated', id: orderId, version, owner });
  if (opts.board) emit({ topic: 'board', type: 'board.updated', id: orderId, version });
}
