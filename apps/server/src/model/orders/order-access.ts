import type { SessionUser } from '@comanda/contract';
import { mayWorkOrder } from '@comanda/domain';
import type { OrderRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { findOrderRow, ORDER_CLOSED, ORDER_NOT_FOUND } from './order-repository.ts';
import { MESSAGES } from '../../http/messages.ts';
import { compiledOnce, firstRow } from '../../db/compiled.ts';

export const ORDER_MESSAGES = MESSAGES.orders;

export function assertMayWorkOrder(user: SessionUser, order: Pick<OrderRow, 'waiter_id'>): void {
  if (!mayWorkOrder(user, order.waiter_id)) throw forbidden(ORDER_MESSAGES.notOwner);
}

const lockStatement = compiledOnce((db, a: { orderId: string; now: number }) =>
  db.updateTable('orders').set({ updated_at: a.now }).where('id', '=', a.orderId).where('status', '=', 'activo').returningAll(),
);

/** The lock itself: touches an activo order's row and returns it, or nothing when it is not activo. */
function lockIfActive(trx: Trx, orderId: string, now: number): Promise<OrderRow | undefined> {
  return firstRow(lockStatement, trx, { orderId, now });
}

/**
 * Takes the order's row lock before anything else in the transaction: with PostgreSQL's
 * read committed, a later statement then sees every item committed by whoever held the lock
 * before us, so the subtotal recomputed by touchOrder is never stale. Only an activo order
 * can be locked this way; a paid or cancelled one is refused.
 */
export async function lockOpenOrder(trx: Trx, orderId: string, now: number): Promise<OrderRow> {
  const row = await lockIfActive(trx, orderId, now);
  if (row) return row;
  if (await findOrderRow(trx, orderId)) throw conflict(ORDER_CLOSED, 'order_closed');
  throw notFound(ORDER_NOT_FOUND);
}

/**
 * The order a caller may work on, locked and open. Locked first (one statement on the common path),
 * then ownership: a refusal throws and the transaction rolls the lock's touch back. When nothing
 * was locked, ownership is still answered before "closed", so another waiter learns nothing.
 */
export async function lockWorkableOrder(trx: Trx, user: SessionUser, orderId: string, now: number): Promise<OrderRow> {
  const locked = await lockIfActive(trx, orderId, now);
  if (!locked) return refuseUnlocked(trx, user, orderId);
  assertMayWorkOrder(user, locked);
  return locked;
}

/**
 * Why an order's lock found nothing (missing or not activo), ownership answered before "closed"
 * so another waiter learns nothing. Always throws.
 */
export async function refuseUnlocked(trx: Trx, user: SessionUser, orderId: string): Promise<never> {
  const existing = await findOrderRow(trx, orderId);
  if (!existing) throw notFound(ORDER_NOT_FOUND);
  assertMayWorkOrder(user, existing);
  throw conflict(ORDER_CLOSED, 'order_closed');
}
