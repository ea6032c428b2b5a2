import type { SessionUser } from '@comanda/contract';
import { INITIAL_ITEM_STATUS, mayRaisePendingLine } from '@comanda/domain';
import { sql } from 'kysely';
import { mutate } from '../../http/transaction.ts';
import { notFound } from '../../http/errors.ts';
import type { ItemWrite } from '../../model/orders/order-change.ts';
import { ORDER_MESSAGES } from '../../model/orders/order-access.ts';
import { placeLine, raiseLine, requireAvailableProduct } from './add-item.command.ts';
import { snapshotDelta } from '../../model/modifiers/modifier-store.ts';
import { lockUnfrozenOrder, thawTimedOut } from '../../model/orders/order-guards.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * "+ unidad" on a line the kitchen has not started (pendiente, same price, no promotion) raises
 * its quantity, and the comanda prints only the new units (the domain's mayRaisePendingLine).
 * Otherwise it adds a NEW pending row for the same product and notes: the kitchen may already have
 * prepared that one, and must see the extra units as a new order to prepare. The price is the
 * catalogue's current one; the line's modifier options come along at the deltas they were
 * ordered with (decision 0026).
 */
export async function addUnits(
  ctx: WriteContext,
  user: SessionUser,
  input: { orderId: string; itemId: string; quantity: number },
): Promise<ItemWrite> {
  await thawTimedOut(ctx, input.orderId);
  const { itemIds } = await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const order = await lockUnfrozenOrder(trx, user, input.orderId, now);
    const source = await trx
      .selectFrom('order_items')
      .selectAll()
      .where('id', '=', input.itemId)
      .where('order_id', '=', input.orderId)
      .where('is_deleted', '=', 0)
      .executeTakeFirst();
    if (!source) throw notFound(ORDER_MESSAGES.itemNotFound);
    const base = await requireAvailableProduct(trx, source.product_id);
    const product = { ...base, price: base.price + snapshotDelta(source.modifiers) };
    const facts = { productId: source.product_id, quantity: input.quantity, unitPrice: product.price, notes: source.notes };
    const pending = {
      productId: source.product_id,
      status: source.status,
      isDeleted: false,
      quantity: Number(source.quantity),
      unitPrice: Number(source.product_price),
      notes: source.notes,
      modifiers: source.modifiers,
      promotionId: source.promotion_id,
      adjusted: false,
    };
    // Only a pending line may be raised; the promotions are read only then.
    if (
      source.status === INITIAL_ITEM_STATUS &&
      mayRaisePendingLine(pending, { ...facts, modifiers: source.modifiers, promotionsActive: false })
    ) {
      // Promotions in force, or a discount or comp on the line: the units make a line of their own.
      const { n } = await trx
        .selectNoFrom([
          sql<number>`(SELECT COUNT(*) FROM promotions WHERE active = 1) + (SELECT COUNT(*) FROM order_adjustments WHERE item_id = ${source.id} AND removed_at IS NULL)`.as(
            'n',
          ),
        ])
        .executeTakeFirstOrThrow();
      if (Number(n) === 0)
        return raiseLine(trx, emit, {
          order,
          user,
          line: source,
          quantity: input.quantity,
          now,
          action: 'order.units-added',
          data: { fromItemId: source.id, productId: source.product_id, productName: source.product_name, price: product.price },
        });
    }
    const line = { orderId: input.orderId, productId: source.product_id, quantity: input.quantity, notes: source.notes };
    return placeLine(ctx, trx, emit, {
      order,
      user,
      line,
      product,
      modifiers: source.modifiers,
      now,
      action: 'order.units-added',
      data: (item) => ({
        itemId: item.id,
        fromItemId: source.id,
        productId: source.product_id,
        productName: item.productName,
        price: item.price,
        quantity: input.quantity,
      }),
    });
  });
  return { orderId: input.orderId, itemIds };
}
