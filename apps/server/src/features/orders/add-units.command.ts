import type { SessionUser } from '@comanda/contract';
import { stationOf } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { notFound } from '../../http/errors.ts';
import { enqueueComandas } from '../../model/printing/enqueue.ts';
import { touchOrder } from '../../model/orders/order-repository.ts';
import type { ItemWrite } from '../../model/orders/order-change.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { lockWorkableOrder, ORDER_MESSAGES } from '../../model/orders/order-access.ts';
import { insertItem, requireAvailableProduct } from './add-item.command.ts';
import { snapshotDelta } from '../../model/modifiers/modifier-store.ts';
import { assertNotFrozen, assertRoomFor, thawTimedOut } from '../../model/orders/order-guards.ts';
import { applyPromotion } from '../../model/orders/promotions.ts';

/**
 * "+ unidad" adds a NEW pending row for the same product and notes rather than raising the
 * quantity of the existing one: the kitchen may already have prepared that one, and must
 * see the extra units as a new order to prepare. The price is the catalogue's current one; the
 * line's modifier options come along at the deltas they were ordered with (decision 0026).
 */
export async function addUnits(
  ctx: AppContext,
  user: SessionUser,
  input: { orderId: string; itemId: string; quantity: number },
): Promise<ItemWrite> {
  await thawTimedOut(ctx, input.orderId);
  const itemIds = await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const order = await lockWorkableOrder(trx, user, input.orderId, now);
    await assertNotFrozen(trx, input.orderId);
    const source = await trx
      .selectFrom('order_items')
      .select(['id', 'product_id', 'notes', 'modifiers'])
      .where('id', '=', input.itemId)
      .where('order_id', '=', input.orderId)
      .where('is_deleted', '=', 0)
      .executeTakeFirst();
    if (!source) throw notFound(ORDER_MESSAGES.itemNotFound);
    const base = await requireAvailableProduct(trx, source.product_id);
    const product = { ...base, price: base.price + snapshotDelta(source.modifiers) };
    await assertRoomFor(trx, order, { lines: 1, amount: product.price * input.quantity });
    const item = await insertItem(
      trx,
      { orderId: input.orderId, productId: source.product_id, quantity: input.quantity, notes: source.notes },
      product,
      now,
      source.modifiers,
    );
    const itemIds = await applyPromotion(ctx, trx, item.id, user);
    await enqueueComandas(trx, { orderId: input.orderId, itemIds, now });
    const version = await touchOrder(trx, input.orderId, now);
    await audit(trx, now, {
      actor: user,
      action: 'order.units-added',
      entity: 'order',
      entityId: input.orderId,
      data: {
        itemId: item.id,
        fromItemId: source.id,
        productId: source.product_id,
        productName: item.productName,
        price: item.price,
        quantity: input.quantity,
      },
    });
    emitOrderChanged(emit, input.orderId, version, { owner: order.waiter_id, board: [stationOf(product.category)] });
    // A promotion may have split the new units (NxM free units on their own row): the answer carries every row.
    return itemIds;
  });
  return { orderId: input.orderId, itemIds };
}
