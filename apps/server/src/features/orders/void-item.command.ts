import type { Order, SessionUser } from '@comanda/contract';
import { normalizeOptionalText, splitVoid, VOID_MESSAGES, voidNeedsAdminPin } from '@comanda/domain';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { newId } from '../../http/ids.ts';
import { enqueueCancelation } from '../../model/printing/enqueue.ts';
import { findOrderItem, loadOrder, touchOrder } from '../../model/orders/order-repository.ts';
import { dropLineAdjustments } from '../../model/orders/adjustments-follow.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { ORDER_MESSAGES } from '../../model/orders/order-access.ts';
import { lockUnfrozenOrder } from '../../model/orders/order-guards.ts';
import { businessTimezone, rollUpLoss } from '../../model/reports/rollups.ts';
import { voidedFields } from '../../model/voids/voided-fields.ts';
import { beginVoid, listedReason, pinRequired, type VoidRequest } from './void-guards.ts';
import type { WriteContext } from '../../http/request-context.ts';

export interface VoidItemInput extends VoidRequest {
  itemId: string;
  quantity: number;
  reason: string;
}

/**
 * Voids `quantity` units of one line with a reason. All units: the row itself
 * becomes a voided row. Fewer: the row keeps the remaining units (and its id, which the printed
 * comanda and the boards know) and the voided units become a new deleted row of their own.
 * Items a station already prepared (listo, entregado) need an admin PIN; earlier ones are voided
 * by the order's waiter or an admin. The row lock serialises two devices voiding the same units:
 * the second sees fewer units (or a voided row) and is refused, so nothing is voided twice.
 */
export async function voidItem(ctx: WriteContext, user: SessionUser, input: VoidItemInput): Promise<Order> {
  const authorizer = await beginVoid(ctx, user, input, 'void-item');

  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const order = await lockUnfrozenOrder(trx, user, input.orderId, now);
    const reason = await listedReason(trx, input.reason);
    const item = await findOrderItem(trx, input.orderId, input.itemId);
    if (!item) throw notFound(ORDER_MESSAGES.itemNotFound);
    if (item.is_deleted === 1) throw conflict(VOID_MESSAGES.itemVoided, 'item_deleted');
    // Read under the lock: an item the kitchen marked listo a moment ago needs the PIN now.
    if (voidNeedsAdminPin(item.status) && !authorizer) throw pinRequired(VOID_MESSAGES.pinRequired);
    const split = splitVoid(item.quantity, input.quantity);
    // Another device may have voided some of these units first: what is left is all we may void.
    if (!split) throw conflict(`${VOID_MESSAGES.unitsLeft} (quedan ${item.quantity})`, 'void_units');
    const note = normalizeOptionalText(input.note);
    const voided = voidedFields({ user, now, reason, note, authorizer });
    let voidedId = item.id;
    if (split.remaining === 0) {
      await trx.updateTable('order_items').set(voided).where('id', '=', item.id).where('is_deleted', '=', 0).execute();
      // The whole line is gone: its discounts and comps are removed, not left listed at $0 (0022).
      await dropLineAdjustments(trx, { itemIds: [item.id], actor: user, now, why: 'item-voided' });
    } else {
      voidedId = newId();
      await trx
        .updateTable('order_items')
        .set({ quantity: split.remaining, updated_at: now })
        .where('id', '=', item.id)
        .where('quantity', '=', item.quantity)
        .execute();
      // The voided units keep the line's creation time, so they list next to it.
      await trx
        .insertInto('order_items')
        .values({ ...item, ...voided, id: voidedId, quantity: split.voided })
        .execute();
    }
    await enqueueCancelation(trx, { orderId: input.orderId, itemId: voidedId, printedItemId: item.id, now });
    const loss = { kind: 'void', at: now, reason, user, units: split.voided, amount: Number(item.product_price) * split.voided } as const;
    await rollUpLoss(trx, loss, await businessTimezone(ctx, trx));
    const version = await touchOrder(trx, input.orderId, now);
    await audit(trx, now, {
      actor: user,
      action: 'order.item-voided',
      entity: 'order',
      entityId: input.orderId,
      authorizedBy: authorizer?.id ?? null,
      data: {
        itemId: item.id,
        voidedItemId: voidedId,
        productId: item.product_id,
        productName: item.product_name,
        price: Number(item.product_price),
        units: split.voided,
        remaining: split.remaining,
        amount: Number(item.product_price) * split.voided,
        status: item.status,
        reason,
        note,
        authorizedByName: authorizer?.displayName ?? null,
      },
    });
    emitOrderChanged(emit, input.orderId, version, { owner: order.waiter_id, board: true });
  });
  return loadOrder(ctx.db.db, input.orderId);
}
