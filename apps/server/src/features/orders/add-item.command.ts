import { PostgresAdapter } from 'kysely';
import type { SessionUser } from '@comanda/contract';
import { INITIAL_ITEM_STATUS, normalizeOptionalText, stationOf } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import type { Emit, Trx } from '../../http/transaction.ts';
import type { OrderRow } from '../../db/schema.ts';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { MESSAGES } from '../../http/messages.ts';
import { newId } from '../../http/ids.ts';
import { enqueueComandas } from '../../model/printing/enqueue.ts';
import { touchOrder } from '../../model/orders/order-repository.ts';
import type { ItemWrite } from '../../model/orders/order-change.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { lockWorkableOrder, ORDER_MESSAGES } from '../../model/orders/order-access.ts';
import { assertNotFrozen, assertRoomFor, thawTimedOut } from '../../model/orders/order-guards.ts';
import { applyPromotion } from '../../model/orders/promotions.ts';
import { priceWithModifiers } from '../../model/modifiers/modifier-store.ts';

export interface AddItemInput {
  orderId: string;
  productId: string;
  quantity: number;
  notes?: string | null | undefined;
  /** The chosen modifier options (decision 0026); the price comes from the catalogue, never the client. */
  optionIds?: string[] | undefined;
}

type Product = { id: string; name: string; price: number; category: string };

/**
 * Only a product that is in the catalogue and available can be ordered: an unknown one is a 404,
 * one marked agotado a 409 that names it (issue #17). On PostgreSQL the product row is read FOR
 * SHARE, so a concurrent "agotado" waits for this add to commit, or this add waits for it and
 * sees it: never an item added after the product was refused to everyone. SQLite runs one write
 * transaction at a time, so the plain read is already that. Callers lock the order first, then
 * the product, so no two writers take them the other way round.
 */
export async function requireAvailableProduct(trx: Trx, productId: string): Promise<Product> {
  const query = trx.selectFrom('products').select(['id', 'name', 'price', 'category', 'available']).where('id', '=', productId);
  const pg = trx.getExecutor().adapter instanceof PostgresAdapter;
  const product = await (pg ? query.forShare() : query).executeTakeFirst();
  if (!product) throw notFound(ORDER_MESSAGES.productNotFound);
  if (Number(product.available) !== 1) throw conflict(MESSAGES.menu.soldOut(product.name), 'product_unavailable');
  return { id: product.id, name: product.name, category: product.category, price: Number(product.price) };
}

/**
 * Inserts one pending item row with the product's current name and price copied onto it, so
 * later catalogue changes never rewrite what was ordered. With modifiers, `product.price` is
 * the unit price with the options' deltas and `modifiers` their snapshot (decision 0026).
 */
export async function insertItem(trx: Trx, input: AddItemInput, product: Product, now: number, modifiers: string | null = null) {
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
      modifiers,
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

/**
 * A new line on a locked order, as every add makes it: room for it within the order's limits,
 * the row, the promotion that may split it (NxM free units on their own row), one comanda per
 * station, the order's figures, the audit entry and the live event. Returns every row it made.
 */
export async function placeLine(
  ctx: AppContext,
  trx: Trx,
  emit: Emit,
  p: {
    order: OrderRow;
    user: SessionUser;
    line: AddItemInput;
    product: Product;
    modifiers: string | null;
    now: number;
    action: string;
    data: (item: Awaited<ReturnType<typeof insertItem>>) => Record<string, unknown>;
  },
): Promise<string[]> {
  const { order, line, product, now } = p;
  await assertRoomFor(trx, order, { lines: 1, amount: product.price * line.quantity });
  const item = await insertItem(trx, line, product, now, p.modifiers);
  const itemIds = await applyPromotion(ctx, trx, item.id, p.user);
  await enqueueComandas(trx, { orderId: line.orderId, itemIds, now });
  const version = await touchOrder(trx, line.orderId, now);
  await audit(trx, now, { actor: p.user, action: p.action, entity: 'order', entityId: line.orderId, data: p.data(item) });
  emitOrderChanged(emit, line.orderId, version, { owner: order.waiter_id, board: [stationOf(product.category)] });
  return itemIds;
}

export async function addItem(ctx: AppContext, user: SessionUser, input: AddItemInput): Promise<ItemWrite> {
  await thawTimedOut(ctx, input.orderId);
  const itemIds = await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const order = await lockWorkableOrder(trx, user, input.orderId, now);
    const base = await requireAvailableProduct(trx, input.productId);
    const priced = await priceWithModifiers(trx, base, input.optionIds);
    const product = { ...base, price: priced.unitPrice };
    await assertNotFrozen(trx, input.orderId);
    return placeLine(ctx, trx, emit, {
      order,
      user,
      line: input,
      product,
      modifiers: priced.snapshot,
      now,
      action: 'order.item-added',
      data: (item) => ({
        itemId: item.id,
        productId: input.productId,
        productName: item.productName,
        price: item.price,
        quantity: input.quantity,
        modifiers: priced.chosen,
      }),
    });
  });
  // The route reads the answer after commit, outside the order's lock (order-change.ts).
  return { orderId: input.orderId, itemIds };
}
