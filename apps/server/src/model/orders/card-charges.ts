import { sql, type Expression, type QueryCreator, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { conflict } from '../../http/errors.ts';
import { compiledOnce, firstRow } from '../../db/compiled.ts';
import { CARD_MESSAGES, LIVE_STATES } from '../card-payments/card-payment-store.ts';
import { REVIEW_MESSAGES } from '../card-payments/card-review-guard.ts';

/** 1 when the order has a card attempt in one of `states`, else 0: a column of one of the order's own statements. */
export function cardAttemptIn(orderId: string, states: readonly string[]) {
  return sql<number>`CASE WHEN EXISTS (SELECT 1 FROM card_payments WHERE order_id = ${orderId} AND state IN (${sql.join(states)})) THEN 1 ELSE 0 END`;
}

/**
 * Before any payment (cash, transfer, another card charge): a card attempt that may still charge
 * could be approved meanwhile, and an approved one not yet settled has taken the money already —
 * either way the customer would pay twice. Refuses from the flags a lock returned (lockOrderToCharge,
 * lockTableRefusingCardCharges); a live attempt answers first.
 */
export function refuseCardCharge(charges: { live: boolean; review: boolean }): void {
  if (charges.live) throw conflict(CARD_MESSAGES.inProgress, 'card_payment_in_progress');
  if (charges.review) throw conflict(REVIEW_MESSAGES.pending, 'card_payment_needs_review');
}

/**
 * The row lock of the order's table (lockTableOfOrder's), refusing a card charge (refuseCardCharge)
 * told by that same statement: a round trip less for a cash close or a payment part on PostgreSQL. The
 * refusal still comes before any answer about the order itself, as when it was read first.
 */
export async function lockTableRefusingCardCharges(trx: Trx, orderId: string, now: number): Promise<void> {
  const locked = await firstRow(lockTableToSettleStatement, trx, { orderId, now });
  if (locked) refuseCardCharge({ live: Number(locked.card_live) !== 0, review: Number(locked.card_review) !== 0 });
}

/** The table's lock with the order's card flags; `when` (a condition of the caller's statement) may hold it back. */
export const lockTableToSettle = (db: QueryCreator<Database>, a: { orderId: string; now: number }, when?: Expression<SqlBool>) =>
  db
    .updateTable('tables')
    .set({ updated_at: a.now })
    .where('id', '=', (eb) => eb.selectFrom('orders').select('table_id').where('orders.id', '=', a.orderId))
    .$if(when !== undefined, (qb) => qb.where(when!))
    .returning([cardAttemptIn(a.orderId, LIVE_STATES).as('card_live'), cardAttemptIn(a.orderId, ['needs_review']).as('card_review')]);

const lockTableToSettleStatement = compiledOnce((db, a: { orderId: string; now: number }) => lockTableToSettle(db, a));
