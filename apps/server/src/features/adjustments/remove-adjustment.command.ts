import type { Order, SessionUser } from '@comanda/contract';
import { ADJUSTMENT_MESSAGES } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { loadOrder, touchOrder } from '../../model/orders/order-repository.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { lockWorkableOrder } from '../../model/orders/order-access.ts';
import { assertNoLiveCardPayment, authorizeAdjustment } from './adjustment-guards.ts';

/**
 * Removes a discount or comp before the order is paid, with an admin PIN. The row stays, marked
 * removed (who, when), for the audit trail; the order's figures are recomputed without it.
 */
export async function removeAdjustment(
  ctx: AppContext,
  user: SessionUser,
  input: { orderId: string; adjustmentId: string; pin: string; ip: string; sessionHash?: string | null },
): Promise<Order> {
  const authorizer = await authorizeAdjustment(ctx, {
    user,
    orderId: input.orderId,
    pin: input.pin,
    ip: input.ip,
    sessionHash: input.sessionHash,
  });

  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const order = await lockWorkableOrder(trx, user, input.orderId, now);
    await assertNoLiveCardPayment(trx, order.id);
    const row = await trx
      .selectFrom('order_adjustments')
      .selectAll()
      .where('id', '=', input.adjustmentId)
      .where('order_id', '=', order.id)
      .executeTakeFirst();
    if (!row) throw notFound(ADJUSTMENT_MESSAGES.notFound);
    if (row.removed_at !== null) throw conflict(ADJUSTMENT_MESSAGES.alreadyRemoved, 'adjustment_removed');
    await trx
      .updateTable('order_adjustments')
      .set({ removed_at: now, removed_by: authorizer.id, removed_by_name: authorizer.displayName })
      .where('id', '=', row.id)
      .where('removed_at', 'is', null)
      .execute();
    const version = await touchOrder(trx, order.id, now);
    await audit(trx, now, {
      actor: user,
      action: row.kind === 'comp' ? 'order.comp-removed' : 'order.discount-removed',
      entity: 'order',
      entityId: order.id,
      authorizedBy: authorizer.id,
      data: {
        adjustmentId: row.id,
        kind: row.kind,
        itemId: row.item_id,
        amount: Number(row.amount),
        reason: row.reason,
        authorizedByName: authorizer.displayName,
      },
    });
    emitOrderChanged(emit, order.id, version, { owner: order.waiter_id });
  });
  return loadOrder(ctx.db.db, input.orderId);
}
