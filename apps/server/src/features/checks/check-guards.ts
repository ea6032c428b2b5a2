import { lockUnfrozenOrder, requireOrderToEdit, thawTimedOut } from '../../model/orders/order-guards.ts';
import type { AppContext } from '../../http/context.ts';
import type { SessionUser } from '@comanda/contract';
import type { OrderRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { lockTableOfOrder } from '../../model/orders/table-link.ts';
import { assertNoPendingReview } from '../../model/card-payments/card-review-guard.ts';

/** Before splitting, outside the transaction: the order exists, the user may work it, a timed-out card attempt is settled. */
export async function prepareSplit(ctx: AppContext, user: SessionUser, orderId: string): Promise<void> {
  const { timedOut } = await requireOrderToEdit(ctx, user, orderId);
  if (timedOut) await thawTimedOut(ctx, orderId);
}

/**
 * In the split's transaction: the table's lock, then the order's, and no card charge on its way.
 * An order the card terminal may be charging (or whose approved charge waits for review) is not
 * split: the terminal charges the amount computed when the payment started, exactly as the order
 * edit commands refuse it.
 */
export async function lockOrderToSplit(trx: Trx, user: SessionUser, orderId: string, now: number): Promise<OrderRow> {
  await lockTableOfOrder(trx, orderId, now);
  const order = await lockUnfrozenOrder(trx, user, orderId, now);
  await assertNoPendingReview(trx, orderId);
  return order;
}
