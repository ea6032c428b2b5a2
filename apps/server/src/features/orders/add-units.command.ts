import type { Order, SessionUser } from '@comanda/contract';
import type { AppContext } from '../../http/context.ts';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { notFound } from '../../http/errors.ts';
import { enqueueComandas } from '../../model/printing/enqueue.ts';
import { loadOrder, touchOrder } from '../../model/orders/order-repository.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { lockWorkableOrder, ORDER_MESSAGES } from '../../model/orders/order-access.ts';
import { insertItem, requireAvailableProduct } from './add-item.command.ts';
import { assertNotFrozen, assertRoomFor, thawTimedOut } from './order-guards.ts';

/**
 * "+ unidad" adds a NEW pending row for the same product and notes rather than raising the
 * quantity of the existing one: the kitchen may already have prepared that one, and must
 * see the extra units as a new order to prepare. The price is the catalogue's current one.
 */
export async function addUnits(
  ctx: AppContext,
  user: SessionUser,
  input: { orderId: string; itemId: string; quantity: number },
): Promise<Order> {
  await thawTimedOut(ctx, input.orderId);
  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const order = await lockWorkableOrder(trx, user, input.orderId, now);
    await assertNotFrozen(trx, input.orderId);
    const source = await trx
      .selectFrom('order_items')
      .select(['id', 'product_id', 'notes'])
      .where('id', '=', input.itemId)
      .where('order_id', '=', input.orderId)
      .where('is_deleted', '=', 0)
      .executeTakeFirst();
    if (!source) throw notFound(ORDER_MESSAGES.itemNotFound);
    const product = await requireAvailableProduct(trx, source.product_id);
    await assertRoomFor(trx, order, { lines: 1, amount: product.price * input.quantity });
    const item = await insertItem(
      trx,
      { orderId: input.orderId, productId: source.product_id, quantity: input.quantity, notes: source.notes },
      product,
      now,
    );
    await enqueueComandas(trx, { orderId: input.orderId, itemIds: [item.id], now });
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
    emitOrderChanged(emit, input.orderId, version, { owner: order.waiter_id, board: true });
  });
  return loadOrder(ctx.db.db, input.orderId);
}
