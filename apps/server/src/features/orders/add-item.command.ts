import { PostgresAdapter, sql } from 'kysely';
import type { SessionUser } from '@comanda/contract';
import { INITIAL_ITEM_STATUS, normalizeOptionalText, pendingLineFor, stationOf } from '@comanda/domain';
import type { Emit, Trx } from '../../http/transaction.ts';
import type { OrderItemRow, OrderRow } from '../../db/schema.ts';
import { mutate } from '../../http/transaction.ts';
import { auditInsert } from '../../http/audit.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { MESSAGES } from '../../http/messages.ts';
import { newId } from '../../http/ids.ts';
import { enqueueComandas, stationPrintersColumn, stationPrintersOf, type KnownForComanda } from '../../model/printing/enqueue.ts';
import { touchOrderRow, type Rider } from '../../model/orders/order-repository.ts';
import { orderChangeOf, type ItemWrite } from '../../model/orders/order-change.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { lockWorkableOrder, ORDER_MESSAGES } from '../../model/orders/order-access.ts';
import { assertRoomFor, refuseIfFrozen, thawTimedOut } from '../../model/orders/order-guards.ts';
import { LIVE_STATES } from '../../model/card-payments/card-payment-store.ts';
import { applyPromotion } from '../../model/orders/promotions.ts';
import { priceWithModifiers } from '../../model/modifiers/modifier-store.ts';
import { boardLineOf } from '../../model/orders/board-lines.ts';
import { compiledOnce, firstRow } from '../../db/compiled.ts';
import { mayQuickAdd, quickAddItem } from './quick-add.ts';
import type { WriteContext } from '../../http/request-context.ts';
import type { SessionToCheck } from '../../auth/sessions.ts';

export interface AddItemInput {
  orderId: string;
  productId: string;
  quantity: number;
  notes?: string | null | undefined;
  /** The chosen modifier options; the price comes from the catalogue, never the client. */
  optionIds?: string[] | undefined;
}

type Product = { id: string; name: string; price: number; category: string };

/**
 * Only a product that is in the catalogue and available can be ordered: an unknown one is a 404,
 * one marked agotado a 409 that names it. On PostgreSQL the product row is read FOR
 * SHARE, so a concurrent "agotado" waits for this add to commit, or this add waits for it and
 * sees it: never an item added after the product was refused to everyone. SQLite runs one write
 * transaction at a time, so the plain read is already that. Callers lock the order first, then
 * the product, so no two writers take them the other way round.
 */
export async function requireAvailableProduct(trx: Trx, productId: string): Promise<Product> {
  const query = trx.selectFrom('products').select(['id', 'name', 'price', 'category', 'available']).where('id', '=', productId);
  const pg = trx.getExecutor().adapter instanceof PostgresAdapter;
  const product = await (pg ? query.forShare() : query).executeTakeFirst();
  return availableProduct(product);
}

function availableProduct(product: { id: string; name: string; price: number; category: string; available: number } | undefined): Product {
  if (!product) throw notFound(ORDER_MESSAGES.productNotFound);
  if (Number(product.available) !== 1) throw conflict(MESSAGES.menu.soldOut(product.name), 'product_unavailable');
  return { id: product.id, name: product.name, category: product.category, price: Number(product.price) };
}

/** What an add needs to know besides the product, read with it in one statement after the order's lock. */
interface AddFacts {
  /** Modifier groups of the product that must be answered (min_select > 0). */
  requiredGroups: number;
  /** Card attempts that may still charge (the order is frozen), and those among them timed out. */
  liveCards: number;
  timedOutCards: number;
  /** Lines of the order, deleted ones included (ORDER_LIMITS). */
  lines: number;
  activePromotions: number;
  /** Pending lines of the order with this product: the add may raise one of them (pendingLineFor). */
  pendingTwins: number;
  /** The enabled station printers (cocina, barra). */
  printers: { id: string; role: string }[];
}

// Built once: an add runs on the hot path, and these fragments never change.
const LIVE_STATE_LIST = sql.join(LIVE_STATES.map((state) => sql`${state}`));

/**
 * The product (FOR SHARE on PostgreSQL, as requireAvailableProduct) with every other fact an add
 * checks, each a scalar subquery, in one round trip. It runs after the order's lock, so on
 * PostgreSQL (READ COMMITTED) its snapshot sees every write the lock waited for.
 */
const addFactsStatement = compiledOnce((db, a: { orderId: string; productId: string }) => {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const printers = stationPrintersColumn(pg);
  const live = LIVE_STATE_LIST;
  const query = db
    .selectFrom('products')
    .select(['id', 'name', 'price', 'category', 'available'])
    .select([
      sql<number>`(SELECT COUNT(*) FROM modifier_groups WHERE min_select > 0 AND id IN (SELECT group_id FROM modifier_links WHERE product_id = products.id OR category = products.category))`.as(
        'required_groups',
      ),
      sql<number>`(SELECT COUNT(*) FROM card_payments WHERE order_id = ${a.orderId} AND state IN (${live}))`.as('live_cards'),
      sql<number>`(SELECT COUNT(*) FROM card_payments WHERE order_id = ${a.orderId} AND state = ${'timeout'})`.as('timed_out_cards'),
      sql<number>`(SELECT COUNT(*) FROM order_items WHERE order_id = ${a.orderId})`.as('lines'),
      sql<number>`(SELECT COUNT(*) FROM promotions WHERE active = 1)`.as('active_promotions'),
      sql<number>`(SELECT COUNT(*) FROM order_items WHERE order_id = ${a.orderId} AND product_id = products.id AND status = ${INITIAL_ITEM_STATUS} AND is_deleted = 0)`.as(
        'pending_twins',
      ),
      printers.as('printers'),
    ])
    .where('id', '=', a.productId);
  return pg ? query.forShare() : query;
});

async function readAddFacts(trx: Trx, orderId: string, productId: string): Promise<{ product: Product; facts: AddFacts }> {
  const row = await firstRow(addFactsStatement, trx, { orderId, productId });
  const product = availableProduct(row);
  return {
    product,
    facts: {
      requiredGroups: Number(row?.required_groups),
      liveCards: Number(row?.live_cards),
      timedOutCards: Number(row?.timed_out_cards),
      lines: Number(row?.lines),
      activePromotions: Number(row?.active_promotions),
      pendingTwins: Number(row?.pending_twins),
      printers: stationPrintersOf(row?.printers),
    },
  };
}

const insertItemStatement = compiledOnce(
  (
    db,
    a: {
      id: string;
      orderId: string;
      productId: string;
      productName: string;
      price: number;
      category: string;
      quantity: number;
      station: ReturnType<typeof stationOf>;
      notes: string | null;
      modifiers: string | null;
      now: number;
    },
  ) =>
    db
      .insertInto('order_items')
      .values({
        id: a.id,
        order_id: a.orderId,
        product_id: a.productId,
        product_name: a.productName,
        product_price: a.price,
        quantity: a.quantity,
        status: INITIAL_ITEM_STATUS,
        category: a.category,
        station: a.station,
        notes: a.notes,
        modifiers: a.modifiers,
        is_deleted: 0,
        deleted_by: null,
        deleted_by_name: null,
        deleted_at: null,
        created_at: a.now,
        updated_at: a.now,
      })
      .returningAll(),
);

/**
 * Inserts one pending item row with the product's current name and price copied onto it, so
 * later catalogue changes never rewrite what was ordered. With modifiers, `product.price` is
 * the unit price with the options' deltas and `modifiers` their snapshot.
 */
export async function insertItem(trx: Trx, input: AddItemInput, product: Product, now: number, modifiers: string | null = null) {
  const id = newId();
  const notes = normalizeOptionalText(input.notes);
  const row = (await firstRow(insertItemStatement, trx, {
    id,
    orderId: input.orderId,
    productId: product.id,
    productName: product.name,
    price: product.price,
    category: product.category,
    quantity: input.quantity,
    station: stationOf(product.category),
    notes,
    modifiers,
    now,
  }))!;
  return { id, productName: product.name, price: product.price, notes, row };
}

/** What an add read with its product (readAddFacts): each one given is a read fewer for placeLine. */
export interface KnownForLine {
  lines: number;
  activePromotions: number;
  printers: { id: string; role: string }[];
}

/** The rows a new line made, and the light answer when the transaction had all of it in hand. */
export interface PlacedLine {
  itemIds: string[];
  change?: ItemWrite['change'];
}

/**
 * A new line on a locked order, as every add makes it: room for it within the order's limits,
 * the row, the promotion that may split it (NxM free units on their own row), one comanda per
 * station, the order's figures, the audit entry and the live event. Returns every row it made.
 */
export async function placeLine(
  ctx: WriteContext,
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
    known?: KnownForLine | undefined;
  },
): Promise<PlacedLine> {
  const { order, line, product, now, known } = p;
  await assertRoomFor(trx, order, { lines: 1, amount: product.price * line.quantity }, known?.lines);
  const item = await insertItem(trx, line, product, now, p.modifiers);
  const itemIds = await applyPromotion(ctx, trx, item.id, p.user, known?.activePromotions);
  // With no promotion active the new row is exactly as inserted, so it needs no reading again.
  const asInserted: OrderItemRow | null = known?.activePromotions === 0 ? item.row : null;
  // The comandas' INSERTs and the audit entry go with the order's figures: one round trip on PostgreSQL.
  const riders: Rider[] = [];
  const forComanda: KnownForComanda | undefined = known && {
    printers: known.printers,
    order,
    ...(asInserted ? { items: [asInserted] } : {}),
    defer: (insert) => riders.push(insert),
  };
  await enqueueComandas(trx, { orderId: line.orderId, itemIds, now, known: forComanda });
  riders.push(auditInsert(trx, now, { actor: p.user, action: p.action, entity: 'order', entityId: line.orderId, data: p.data(item) }));
  const touched = await touchOrderRow(trx, line.orderId, now, riders);
  // With the new row in hand (no promotion split it), the boards patch it in from the event.
  const lines = asInserted ? { lines: [boardLineOf(order, asInserted)], removed: [] } : undefined;
  emitOrderChanged(emit, line.orderId, touched.version, { owner: order.waiter_id, board: [stationOf(product.category)], lines });
  const answerable = asInserted && touched.row && Number(touched.row.payment_count) === 0 && Number(touched.row.live_adjustments) === 0;
  return { itemIds, change: answerable ? orderChangeOf(touched.row!, [asInserted]) : undefined };
}

/** The order's pending lines of a product, with their live adjustments counted; built once (compiledOnce). */
const pendingLinesStatement = compiledOnce((db, a: { orderId: string; productId: string }) =>
  db
    .selectFrom('order_items')
    .selectAll()
    .select(
      sql<number>`(SELECT COUNT(*) FROM order_adjustments WHERE item_id = order_items.id AND removed_at IS NULL)`.as('live_adjustments'),
    )
    .where('order_id', '=', a.orderId)
    .where('product_id', '=', a.productId)
    .where('status', '=', INITIAL_ITEM_STATUS)
    .where('is_deleted', '=', 0),
);

/** A line's quantity raised by some units, the line as it is after. */
const raiseStatement = compiledOnce((db, a: { id: string; quantity: number; now: number }) =>
  db
    .updateTable('order_items')
    .set((eb) => ({ quantity: eb('quantity', '+', a.quantity), updated_at: a.now }))
    .where('id', '=', a.id)
    .returningAll(),
);

/**
 * The pending line the units go onto (the domain's pendingLineFor), or null for a new line: the
 * order's pending lines of the product, read only when the add's facts counted some.
 */
export async function pendingTwinOf(
  trx: Trx,
  a: {
    orderId: string;
    productId: string;
    quantity: number;
    unitPrice: number;
    notes: string | null | undefined;
    modifiers: string | null;
  },
  promotionsActive: boolean,
): Promise<OrderItemRow | null> {
  if (promotionsActive) return null;
  const { rows } = await pendingLinesStatement(trx, { orderId: a.orderId, productId: a.productId });
  const lines = rows.map((r) => ({
    row: r,
    id: r.id,
    productId: r.product_id,
    status: r.status,
    isDeleted: Number(r.is_deleted) === 1,
    quantity: Number(r.quantity),
    unitPrice: Number(r.product_price),
    notes: r.notes,
    modifiers: r.modifiers,
    promotionId: r.promotion_id,
    adjusted: Number(r.live_adjustments) > 0,
    createdAt: Number(r.created_at),
  }));
  return pendingLineFor(lines, { ...a, promotionsActive })?.row ?? null;
}

/**
 * Units onto a pending line (the domain's mayRaisePendingLine): its quantity goes up, and the
 * comanda carries only the new units. Room within the order's amount, the audit entry, the
 * order's figures and the live event as placeLine's.
 */
export async function raiseLine(
  trx: Trx,
  emit: Emit,
  p: {
    order: OrderRow;
    user: SessionUser;
    line: OrderItemRow;
    quantity: number;
    now: number;
    action: string;
    data: Record<string, unknown>;
    printers?: { id: string; role: string }[] | undefined;
    /** The order's line count, when the caller read it after the lock already (an add does). */
    lines?: number | undefined;
  },
): Promise<PlacedLine> {
  const { order, line, quantity, now } = p;
  await assertRoomFor(trx, order, { lines: 0, amount: Number(line.product_price) * quantity }, p.lines);
  const raised = await firstRow(raiseStatement, trx, { id: line.id, quantity, now });
  if (!raised) throw new Error(`raiseLine: line ${line.id} not found`);
  const riders: Rider[] = [];
  await enqueueComandas(trx, {
    orderId: order.id,
    itemIds: [raised.id],
    now,
    known: {
      ...(p.printers ? { printers: p.printers } : {}),
      order,
      items: [{ ...raised, quantity }],
      defer: (insert) => riders.push(insert),
    },
  });
  riders.push(
    auditInsert(trx, now, {
      actor: p.user,
      action: p.action,
      entity: 'order',
      entityId: order.id,
      data: { ...p.data, itemId: raised.id, quantity, lineQuantity: Number(raised.quantity) },
    }),
  );
  const touched = await touchOrderRow(trx, order.id, now, riders);
  emitOrderChanged(emit, order.id, touched.version, {
    owner: order.waiter_id,
    board: [stationOf(raised.category)],
    lines: { lines: [boardLineOf(order, raised)], removed: [] },
  });
  const answerable = touched.row && Number(touched.row.payment_count) === 0 && Number(touched.row.live_adjustments) === 0;
  return { itemIds: [raised.id], change: answerable ? orderChangeOf(touched.row!, [raised]) : undefined };
}

/** An add met a card attempt whose dialog timed out: it is settled with the provider, then the add runs again. */
class ThawFirst extends Error {}

/**
 * The add's transaction: the order's lock, then one read of the product and every fact the add
 * checks (readAddFacts), the line, its comandas, the order's figures and the audit entry. The
 * checks answer in the order they always did: ownership and 'closed', the product, its options,
 * the card freeze, the order's limits.
 */
export async function addItem(ctx: WriteContext, user: SessionUser, input: AddItemInput, session?: SessionToCheck): Promise<ItemWrite> {
  // PostgreSQL, the plain case: one statement (quick-add.ts); anything else comes back here.
  if (mayQuickAdd(ctx.db, user, input)) {
    const quick = await quickAddItem(ctx, user, input, session?.hash ?? null);
    if (quick) return quick;
  }
  // A session the statement did not confirm is read before anything else is done for it.
  return addItemInTypeScript(ctx, session ? await session.read() : user, input);
}

/**
 * The add as one TypeScript transaction: every case, every refusal, and the reference the agreement
 * tests hold PostgreSQL's one statement to. A new reason to refuse goes into the domain's plain case
 * (isPlainAdd) and comanda_quick_add (db/functions/quick-add.ts), or the agreement test fails.
 */
export async function addItemInTypeScript(ctx: WriteContext, user: SessionUser, input: AddItemInput): Promise<ItemWrite> {
  let placed: PlacedLine;
  try {
    placed = await addItemOnce(ctx, user, input, false);
  } catch (error) {
    if (!(error instanceof ThawFirst)) throw error;
    // Rare: the order has an attempt whose dialog timed out. As before every edit, it is settled
    // with the provider outside any transaction, and the add starts again (its key unclaimed, as
    // the rolled back transaction left it).
    await thawTimedOut(ctx, input.orderId);
    placed = await addItemOnce(ctx, user, input, true);
  }
  // Without the change in hand the route reads the answer after commit (order-change.ts).
  return { orderId: input.orderId, itemIds: placed.itemIds, change: placed.change };
}

async function addItemOnce(ctx: WriteContext, user: SessionUser, input: AddItemInput, thawed: boolean): Promise<PlacedLine> {
  return mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const order = await lockWorkableOrder(trx, user, input.orderId, now);
    const { product: base, facts } = await readAddFacts(trx, input.orderId, input.productId);
    if (!thawed && facts.timedOutCards > 0) throw new ThawFirst();
    // No option chosen and none required: the list price, nothing to check.
    const priced =
      (input.optionIds ?? []).length > 0 || facts.requiredGroups > 0
        ? await priceWithModifiers(trx, base, input.optionIds)
        : { unitPrice: base.price, chosen: [], snapshot: null };
    const product = { ...base, price: priced.unitPrice };
    refuseIfFrozen(facts.liveCards);
    // The same product, notes and options on a pending line: that line's quantity goes up.
    const twin =
      facts.pendingTwins > 0
        ? await pendingTwinOf(
            trx,
            { ...input, unitPrice: product.price, notes: normalizeOptionalText(input.notes), modifiers: priced.snapshot },
            facts.activePromotions > 0,
          )
        : null;
    if (twin)
      return raiseLine(trx, emit, {
        order,
        user,
        line: twin,
        quantity: input.quantity,
        now,
        action: 'order.item-added',
        printers: facts.printers,
        lines: facts.lines,
        data: { productId: input.productId, productName: twin.product_name, price: product.price, modifiers: priced.chosen },
      });
    return placeLine(ctx, trx, emit, {
      order,
      user,
      line: input,
      product,
      modifiers: priced.snapshot,
      now,
      action: 'order.item-added',
      known: facts,
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
}
