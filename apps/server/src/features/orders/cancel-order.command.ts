import type { Order, SessionUser } from '@comanda/contract';
import { normalizeOptionalText, VOID_MESSAGES } from '@comanda/domain';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { enqueueCancelation } from '../../model/printing/enqueue.ts';
import { assertNoPendingReview } from '../../model/card-payments/card-review-guard.ts';
import { loadOrder, touchOrder } from '../../model/orders/order-repository.ts';
import { dropCheckAdjustments, dropLineAdjustments } from '../../model/orders/adjustments-follow.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { lockWorkableOrder } from '../../model/orders/order-access.ts';
import { releaseTableLink } from '../../model/orders/table-link.ts';
import { businessTimezone, rollUpLoss } from '../../model/reports/rollups.ts';
import { assertNotFrozen, assertNotSharing } from '../../model/orders/order-guards.ts';
import { voidedFields } from '../../model/voids/voided-fields.ts';
import { beginVoid, listedReason, pinRequired, type VoidRequest } from './void-guards.ts';
import type { WriteContext } from '../../http/request-context.ts';

export interface CancelOrderInput extends VoidRequest {
  reason?: string | undefined;
}

/**
 * Cancels an open order. An order without live items (opened by mistake) is
 * cancelled by its waiter or an admin; one with items needs an admin PIN and a listed reason,
 * and its items are voided with that reason (a cancelation slip for each one already printed).
 * The order becomes 'cancelado' and frees its table, in one transaction. Refused while a card
 * payment may still charge it or an approved charge waits for review.
 */
export async function cancelOrder(ctx: WriteContext, user: SessionUser, input: CancelOrderInput): Promise<Order> {
  const authorizer = await beginVoid(ctx, user, input, 'cancel-order');

  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const order = await lockWorkableOrder(trx, user, input.orderId, now);
    assertNotSharing(order);
    await assertNotFrozen(trx, input.orderId);
    await assertNoPendingReview(trx, input.orderId);
    const live = await trx
      .selectFrom('order_items')
      .select(['id', 'product_price', 'quantity'])
      .where('order_id', '=', input.orderId)
      .where('is_deleted', '=', 0)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    if (live.length > 0 && !authorizer) throw pinRequired(VOID_MESSAGES.cancelNeedsPin);
    const reason = live.length > 0 || input.reason ? await listedReason(trx, input.reason) : null;
    const note = normalizeOptionalText(input.note);
    const amount = live.reduce((acc, i) => acc + Number(i.product_price) * i.quantity, 0);
    if (live.length > 0) {
      await trx
        .updateTable('order_items')
        .set(voidedFields({ user, now, reason, note, authorizer }))
        .where('order_id', '=', input.orderId)
        .where('is_deleted', '=', 0)
        .execute();
      for (const item of live) await enqueueCancelation(trx, { orderId: input.orderId, itemId: item.id, now });
      await dropLineAdjustments(trx, { itemIds: live.map((i) => i.id), actor: user, now, why: 'order-cancelled' });
    }
    await dropCheckAdjustments(trx, { orderId: input.orderId, actor: user, now, why: 'order-cancelled' });
    // Recomputed while still activo (the subtotal of a cancelled order is 0: nothing is owed).
    const version = await touchOrder(trx, input.orderId, now);
    await trx
      .updateTable('orders')
      .set({
        status: 'cancelado',
        active_table_id: null,
        completed_at: now,
        updated_at: now,
        cancel_reason: reason,
        cancel_note: note,
        cancelled_by: user.id,
        cancelled_by_name: user.displayName,
        cancel_authorized_by: authorizer?.id ?? null,
      })
      .where('id', '=', input.orderId)
      .execute();
    // Only a table that still points at this order is freed; while another of its orders (a
    // separate check, a bar tab) is activo, the table's link moves there instead (0014).
    await releaseTableLink(trx, order.table_id, input.orderId, now);
    const units = live.reduce((acc, i) => acc + i.quantity, 0);
    await rollUpLoss(trx, { kind: 'cancel', at: now, reason, user, units, amount }, await businessTimezone(ctx, trx));
    await audit(trx, now, {
      actor: user,
      action: 'order.cancelled',
      entity: 'order',
      entityId: input.orderId,
      authorizedBy: authorizer?.id ?? null,
      data: {
        reason,
        note,
        items: live.length,
        amount,
        itemIds: live.map((i) => i.id),
        tableNumber: order.table_number,
        authorizedByName: authorizer?.displayName ?? null,
      },
    });
    emitOrderChanged(emit, input.orderId, version, { owner: order.waiter_id, board: live.length > 0 });
    emit({ topic: 'tables', type: 'table.updated', id: order.table_id, version, changedOrdersOf: order.waiter_id });
    emit({ topic: 'tickets', type: 'ticket.created', id: input.orderId, version });
  });
  return loadOrder(ctx.db.db, input.orderId);
}
