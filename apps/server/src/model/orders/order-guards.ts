import { sql } from 'kysely';
import type { SessionUser } from '@comanda/contract';
import { EQUAL_SHARE_MESSAGES, orderLimitError } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import type { OrderRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { compiledOnce, firstRow } from '../../db/compiled.ts';
import { assertMayWorkOrder, refuseUnlocked } from './order-access.ts';
import { ORDER_NOT_FOUND } from './order-repository.ts';
import { CARD_MESSAGES, LIVE_STATES } from '../card-payments/card-payment-store.ts';
import { reconcileTimedOut } from '../card-payments/timed-out.ts';
import { cardAttemptIn, refuseCardCharge } from './card-charges.ts';

export { refuseCardCharge };

/**
 * While a card payment may still charge the customer (created, on the terminal, or timed out
 * but not confirmed dead), the order's items and totals are frozen: the terminal charges the
 * amount computed when the payment started, so nothing may change what that amount pays for.
 * Call it after lockWorkableOrder: the card payment's creation takes the same order row lock,
 * so the two can never interleave.
 */
export async function assertNotFrozen(trx: Trx, orderId: string): Promise<void> {
  if (await liveCardAttempt(trx, orderId)) throw conflict(CARD_MESSAGES.inProgress, 'order_frozen');
}

/** assertNotFrozen for a caller that counted the order's live card attempts after the lock already (an add). */
export function refuseIfFrozen(liveAttempts: number): void {
  if (liveAttempts > 0) throw conflict(CARD_MESSAGES.inProgress, 'order_frozen');
}

/**
 * lockWorkableOrder for a new charge, whose lock also tells whether another card charge may still
 * take the money or awaits review (a round trip less on PostgreSQL for a card payment's start). The caller refuses with
 * refuseCardCharge where it checked before, so the answers keep their order.
 */
export async function lockOrderToCharge(
  trx: Trx,
  user: SessionUser,
  orderId: string,
  now: number,
): Promise<{ order: OrderRow; charges: { live: boolean; review: boolean } }> {
  const locked = await firstRow(lockToChargeStatement, trx, { orderId, now });
  if (!locked) return refuseUnlocked(trx, user, orderId);
  const { card_live: live, card_review: review, ...order } = locked;
  assertMayWorkOrder(user, order);
  return { order, charges: { live: Number(live) !== 0, review: Number(review) !== 0 } };
}

/** The order's lock (as lockWorkableOrder's), telling whether a card attempt may still charge it or awaits review. */
const lockToChargeStatement = compiledOnce((db, a: { orderId: string; now: number }) =>
  db
    .updateTable('orders')
    .set({ updated_at: a.now })
    .where('id', '=', a.orderId)
    .where('status', '=', 'activo')
    .returningAll()
    .returning([cardAttemptIn(a.orderId, LIVE_STATES).as('card_live'), cardAttemptIn(a.orderId, ['needs_review']).as('card_review')]),
);

/**
 * lockWorkableOrder and assertNotFrozen in one statement: the lock's UPDATE tells whether a card
 * attempt may still charge the order (a round trip less on PostgreSQL for a delete or a void).
 * Ownership is answered first, then the freeze, as the two calls did.
 */
export async function lockUnfrozenOrder(trx: Trx, user: SessionUser, orderId: string, now: number): Promise<OrderRow> {
  const { order, charges } = await lockOrderToCharge(trx, user, orderId, now);
  if (charges.live) throw conflict(CARD_MESSAGES.inProgress, 'order_frozen');
  return order;
}

const ownershipStatement = compiledOnce((db, a: { orderId: string }) =>
  db
    .selectFrom('orders')
    .selectAll()
    .select(cardAttemptIn(a.orderId, ['timeout']).as('card_timed_out'))
    .where('id', '=', a.orderId),
);

/**
 * Before a PIN is checked, outside the transaction: the order exists and this user may work it
 * (so a waiter cannot probe PINs through someone else's table). The same read tells whether a
 * card attempt's dialog timed out; only then is it settled with the provider (thawTimedOut).
 */
export async function requireOrderToEdit(
  ctx: AppContext,
  user: SessionUser,
  orderId: string,
): Promise<{ row: OrderRow; timedOut: boolean }> {
  const found = await firstRow(ownershipStatement, ctx.db.db, { orderId });
  if (!found) throw notFound(ORDER_NOT_FOUND);
  const { card_timed_out: timedOut, ...row } = found;
  assertMayWorkOrder(user, row);
  return { row, timedOut: Number(timedOut) !== 0 };
}

async function liveCardAttempt(trx: Trx, orderId: string): Promise<boolean> {
  const live = await trx
    .selectFrom('card_payments')
    .select('id')
    .where('order_id', '=', orderId)
    .where('state', 'in', [...LIVE_STATES])
    .executeTakeFirst();
  return live !== undefined;
}

/**
 * Before an edit, outside its transaction: an attempt whose dialog timed out is settled with
 * the provider first, so an order is not left frozen by a payment that is already over.
 */
export async function thawTimedOut(ctx: AppContext, orderId: string): Promise<void> {
  await reconcileTimedOut(ctx, orderId).catch(() => undefined);
}

/**
 * Refuses an add that would take the locked order past ORDER_LIMITS (lines or amount). The amount
 * is the locked row's subtotal, which touchOrder keeps equal to its items in every item change;
 * only the line count (deleted lines included) is read from the items.
 */
export async function assertRoomFor(
  trx: Trx,
  order: Pick<OrderRow, 'id' | 'subtotal'>,
  adding: { lines: number; amount: number },
  /** The order's line count, when the caller read it after the lock already (an add does). */
  knownLines?: number,
): Promise<void> {
  const lines =
    knownLines ??
    (
      await trx
        .selectFrom('order_items')
        .select(sql<number>`COUNT(*)`.as('lines'))
        .where('order_id', '=', order.id)
        .executeTakeFirstOrThrow()
    ).lines;
  const problem = orderLimitError({ lines: Number(lines), subtotal: Number(order.subtotal) }, adding);
  if (problem) throw new AppError(422, problem.reason === 'lines' ? 'order_too_many_lines' : 'order_amount_limit', problem.message);
}

/**
 * Equal shares: a share check, or an order whose share checks owe part of its
 * items, is not cancelled or merged away — the money of the other checks depends on it. Each
 * check is paid on its own.
 */
export function assertNotSharing(row: Pick<OrderRow, 'share_amount' | 'shared_out'>): void {
  if (Number(row.share_amount) > 0 || Number(row.shared_out) > 0) throw conflict(EQUAL_SHARE_MESSAGES.shareFamily, 'order_shared');
}
