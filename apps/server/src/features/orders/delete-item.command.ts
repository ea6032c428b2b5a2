import type { SessionUser } from '@comanda/contract';
import { PIN_MESSAGES } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { verifyPin } from '../../auth/verify-pin.ts';
import { enqueueCancelation } from '../../model/printing/enqueue.ts';
import { findOrderRow, ORDER_NOT_FOUND, touchOrder } from '../../model/orders/order-repository.ts';
import type { ItemWrite } from '../../model/orders/order-change.ts';
import { dropLineAdjustments } from '../../model/orders/adjustments-follow.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { assertMayWorkOrder, lockWorkableOrder, ORDER_MESSAGES } from '../../model/orders/order-access.ts';
import { assertNotFrozen, thawTimedOut } from '../../model/orders/order-guards.ts';

/**
 * Soft delete authorised by an admin PIN (SPEC §5): the row stays for the audit trail,
 * flagged with who authorised it and when, and drops out of every count and total.
 */
export async function deleteItem(
  ctx: AppContext,
  user: SessionUser,
  input: { orderId: string; itemId: string; pin: string; ip: string; sessionHash?: string | null },
): Promise<ItemWrite> {
  // Ownership first, so a waiter cannot probe PINs through someone else's table.
  const existing = await findOrderRow(ctx.db.db, input.orderId);
  if (!existing) throw notFound(ORDER_NOT_FOUND);
  assertMayWorkOrder(user, existing);
  // Only an admin's PIN authorises. Another user's PIN is answered exactly like a wrong one, so
  // guessing cannot learn whose PINs exist; the caller's own PIN gets the spec's message.
  const authorizer = await verifyPin(ctx, {
    pin: input.pin,
    actorId: user.id,
    sessionHash: input.sessionHash ?? null,
    ip: input.ip,
    purpose: 'delete-item',
    roles: ['admin'],
    ownPinRefused: new AppError(403, 'not_admin_pin', PIN_MESSAGES.notAdmin),
  });
  await thawTimedOut(ctx, input.orderId);

  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const order = await lockWorkableOrder(trx, user, input.orderId, now);
    await assertNotFrozen(trx, input.orderId);
    const item = await trx
      .selectFrom('order_items')
      .select(['id', 'is_deleted', 'product_id', 'product_name', 'product_price', 'quantity', 'status', 'station'])
      .where('id', '=', input.itemId)
      .where('order_id', '=', input.orderId)
      .executeTakeFirst();
    if (!item) throw notFound(ORDER_MESSAGES.itemNotFound);
    if (item.is_deleted === 1) throw conflict(ORDER_MESSAGES.itemAlreadyDeleted, 'item_deleted');
    await trx
      .updateTable('order_items')
      .set({ is_deleted: 1, deleted_by: authorizer.id, deleted_by_name: authorizer.displayName, deleted_at: now, updated_at: now })
      .where('id', '=', item.id)
      .execute();
    await enqueueCancelation(trx, { orderId: input.orderId, itemId: item.id, now });
    await dropLineAdjustments(trx, { itemIds: [item.id], actor: user, now, why: 'item-deleted' });
    const version = await touchOrder(trx, input.orderId, now);
    await audit(trx, now, {
      actor: user,
      action: 'order.item-deleted',
      entity: 'order',
      entityId: input.orderId,
      authorizedBy: authorizer.id,
      data: {
        itemId: item.id,
        productId: item.product_id,
        productName: item.product_name,
        price: Number(item.product_price),
        quantity: item.quantity,
        status: item.status,
      },
    });
    // A SPEC delete (no reason) leaves the boards at once: they drop the line from the event.
    emitOrderChanged(emit, input.orderId, version, {
      owner: order.waiter_id,
      board: [item.station],
      lines: { lines: [], removed: [item.id] },
    });
  });
  return { orderId: input.orderId, itemIds: [input.itemId] };
}
