import { sql } from 'kysely';
import { orderLimitError } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import type { OrderRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { AppError, conflict } from '../../http/errors.ts';
import { CARD_MESSAGES, LIVE_STATES } from '../../model/card-payments/card-payment-store.ts';
import { reconcileTimedOut } from '../../model/card-payments/timed-out.ts';

/**
 * While a card payment may still charge the customer (created, on the terminal, or timed out
 * but not confirmed dead), the order's items and totals are frozen: the terminal charges the
 * amount computed when the payment started, so nothing may change what that amount pays for.
 * Call it after lockWorkableOrder: the card payment's creation takes the same order row lock,
 * so the two can never interleave.
 */
export async function assertNotFrozen(trx: Trx, orderId: string): Promise<void> {
  const live = await trx
    .selectFrom('card_payments')
    .select('id')
    .where('order_id', '=', orderId)
    .where('state', 'in', [...LIVE_STATES])
    .executeTakeFirst();
  if (live) throw conflict(CARD_MESSAGES.inProgress, 'order_frozen');
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
): Promise<void> {
  const row = await trx
    .selectFrom('order_items')
    .select(sql<number>`COUNT(*)`.as('lines'))
    .where('order_id', '=', order.id)
    .executeTakeFirstOrThrow();
  const problem = orderLimitError({ lines: Number(row.lines), subtotal: Number(order.subtotal) }, adding);
  if (problem) throw new AppError(422, problem.reason === 'lines' ? 'order_too_many_lines' : 'order_amount_limit', problem.message);
}
