import type { Order, SessionUser } from '@comanda/contract';
import { INITIAL_ITEM_STATUS, normalizeOptionalText, stationOf } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import type { Trx } from '../../http/transaction.ts';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { notFound } from '../../http/errors.ts';
import { newId } from '../../http/ids.ts';
import { enqueueComandas } from '../../model/printing/enqueue.ts';
import { loadOrder, touchOrder } from '../../model/orders/order-repository.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { lockWorkableOrder, ORDER_MESSAGES } from '../../model/orders/order-access.ts';
import { assertNotFrozen, assertRoomFor, thawTimedOut } from './order-guards.ts';

export interface AddItemInput {
  orderId: string;
  productId: string;
  quantity: number;
  notes?: string | null | undefined;
}

type Product = { id: string; name: string; price: number; category: string };

/** Only a product that is in the catalogue and available can be ordered. */
export async function requireAvailableProduct(trx: Trx, productId: string): Promise<Product> {
  const product = await trx
    .selectFrom('products')
    .select(['id', 'name', 'price', 'category'])
    .where('id', '=', productId)
    .where('available', '=', 1)
    .executeTakeFirst();
  if (!product) throw notFound(ORDER_MESSAGES.productNotFound);
  return { ...product, price: Number(product.price) };
}

/**
 * Inserts one pending item row with the product's current name and price copied onto it, so
 * later catalogue changes never rewrite what was ordered.
 */
export async function insertItem(trx: Trx, input: AddItemInput, product: Product, now: number) {
  const id = newId();
  const notes = normalizeOptionalText(input.notes);
  await trx
    .insertInto('order_items')
    .values({
      id,
      order_id: input.orderId,
      product_id: product.id,
      product_name: product.name,
      product_price: product.price,
      quantity: input.quantity,
      status: INITIAL_ITEM_STATUS,
      category: product.category,
      station: stationOf(product.category),
      notes,
      is_deleted: 0,
      deleted_by: null,
      deleted_by_name: null,
      deleted_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { id, productName: product.name, price: product.price, notes };
}

export async function addItem(ctx: AppContext, user: SessionUser, input: AddItemInput): Promise<Order> {
  await thawTimedOut(ctx, input.orderId);
  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const product = await requireAvailableProduct(trx, input.productId);
    const order = await lockWorkableOrder(trx, user, input.orderId, now);
    await assertNotFrozen(trx, input.orderId);
    await assertRoomFor(trx, order, { lines: 1, amount: product.price * input.quantity });
    const item = await insertItem(trx, input, product, now);
    await enqueueComandas(trx, { orderId: input.orderId, itemIds: [item.id], now });
    const version = await touchOrder(trx, input.orderId, now);
    await audit(trx, now, {
      actor: user,
      action: 'order.item-added',
      entity: 'order',
      entityId: input.orderId,
      data: { itemId: item.id, productId: input.productId, productName: item.productName, price: item.price, quantity: input.quantity },
    });
    emitOrderChanged(emit, input.orderId, version, { owner: order.waiter_id, board: true });
  });
  // Read after commit, outside the order's lock: the lock is held only for the write itself.
  return loadOrder(ctx.db.db, input.orderId);
}
