import { sql } from 'kysely';
import type { Order } from '@comanda/contract';
import type { OrderRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { presentOrder } from './order-presenter.ts';

export const ORDER_NOT_FOUND = 'Orden no encontrada';
export const ORDER_CLOSED = 'La orden ya fue cerrada y no se puede modificar';

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
