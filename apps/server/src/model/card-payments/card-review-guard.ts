import type { Trx } from '../../http/transaction.ts';
import { conflict } from '../../http/errors.ts';
import { MESSAGES } from '../../http/messages.ts';

export const REVIEW_MESSAGES = MESSAGES.cardReview;

/** Refuses a new charge (cash or card) while an approved charge of the order waits for review. */
export async function assertNoPendingReview(trx: Trx, orderId: string): Promise<void> {
  const row = await trx
    .selectFrom('card_payments')
    .select('id')
    .where('order_id', '=', orderId)
    .where('state', '=', 'needs_review')
    .executeTakeFirst();
  if (row) throw conflict(REVIEW_MESSAGES.pending, 'card_payment_needs_review');
}
