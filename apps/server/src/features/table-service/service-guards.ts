import { assertNotFrozen, thawTimedOut } from '../../model/orders/order-guards.ts';
import { releaseTableLink } from '../../model/orders/table-link.ts';
import type { SessionUser } from '@comanda/contract';
import type { AppContext } from '../../http/context.ts';
import type { OrderRow, TableRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { notFound } from '../../http/errors.ts';
import { assertMayWorkOrder, lockOpenOrder } from '../../model/orders/order-access.ts';
import { findOrderRow, ORDER_NOT_FOUND } from '../../model/orders/order-repository.ts';
import { MESSAGES } from '../../http/messages.ts';

export const SERVICE_MESSAGES = MESSAGES.tableService;

/** Outside the transaction: an attempt whose dialog timed out is settled first, so it does not freeze the order for nothing. */
export async function thawOrders(ctx: AppContext, ...orderIds: string[]): Promise<void> {
  for (const id of orderIds) await thawTimedOut(ctx, id);
}

/** The order the caller may work on, read without a lock (ownership is checked before any PIN or lock). */
export async function requireWorkableOrder(db: Trx, user: SessionUser, orderId: string): Promise<OrderRow> {
  const row = await findOrderRow(db, orderId);
  if (!row) throw notFound(ORDER_NOT_FOUND);
  assertMayWorkOrder(user, row);
  return row;
}

export async function requireTable(db: Trx, tableId: string): Promise<TableRow> {
  const row = await db.selectFrom('tables').selectAll().where('id', '=', tableId).executeTakeFirst();
  if (!row) throw notFound(SERVICE_MESSAGES.tableNotFound);
  return row;
}

/**
 * Locks several open orders in one fixed order (by id), so two moves between the same two
 * orders in opposite directions wait for each other instead of deadlocking on PostgreSQL.
 * Orders are always locked before tables, as the close-order transaction does.
 */
export async function lockOrdersInOrder(
  trx: Trx,
  user: SessionUser,
  orderIds: readonly string[],
  now: number,
): Promise<Map<string, OrderRow>> {
  const locked = new Map<string, OrderRow>();
  for (const id of [...new Set(orderIds)].sort()) {
    const row = await lockOpenOrder(trx, id, now);
    assertMayWorkOrder(user, row);
    await assertNotFrozen(trx, id);
    locked.set(id, row);
  }
  return locked;
}

/**
 * The order left its table: the table is freed only if it still points at that order, and while
 * another of its orders (a separate check, a bar tab) is activo the link moves there instead.
 */
export async function freeTableOf(trx: Trx, tableId: string, orderId: string, now: number): Promise<void> {
  await releaseTableLink(trx, tableId, orderId, now);
}
