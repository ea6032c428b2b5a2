import type { Order, SessionUser } from '@comanda/contract';
import { ADJUSTMENT_MESSAGES } from '@comanda/domain';
import { markAdjustmentRemoved } from '../../model/orders/adjustments-follow.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { adjustOrder } from './adjustment-guards.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * Removes a discount or comp before the order is paid, with an admin PIN. The row stays, marked
 * removed (who, when), for the audit trail; the order's figures are recomputed without it.
 */
export async function removeAdjustment(
  ctx: WriteContext,
  user: SessionUser,
  input: { orderId: string; adjustmentId: string; pin: string; ip: string; sessionHash?: string | null },
): Promise<Order> {
  return adjustOrder(
    ctx,
    { user, ...input },
    {
      // The removal and its audit entry in one step (markAdjustmentRemoved).
      async apply({ trx, order, authorizer, now }) {
        const row = await trx
          .selectFrom('order_adjustments')
          .selectAll()
          .where('id', '=', input.adjustmentId)
          .where('order_id', '=', order.id)
          .executeTakeFirst();
        if (!row) throw notFound(ADJUSTMENT_MESSAGES.notFound);
        if (row.removed_at !== null) throw conflict(ADJUSTMENT_MESSAGES.alreadyRemoved, 'adjustment_removed');
        await markAdjustmentRemoved(trx, row, { actor: user, authorizer, now });
        return row;
      },
    },
  );
}
