import { PostgresAdapter, sql, type QueryCreator, type RawBuilder } from 'kysely';
import type { Order } from '@comanda/contract';
import type { Database, OrderItemRow, OrderRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { presentOrder } from './order-presenter.ts';
import { liveAdjustmentRows, recomputeAdjustments } from './order-adjustments.ts';
import { amountOwed } from '../checkout/amount-owed.ts';
import { MESSAGES } from '../../http/messages.ts';
import { EQUAL_SHARE_MESSAGES } from '@comanda/domain';
import { compiledOnce, firstRow, withRiders, type Rider } from '../../db/compiled.ts';

export const ORDER_NOT_FOUND = MESSAGES.order.notFound;
export const ORDER_CLOSED = MESSAGES.order.closed;

export async function findOrderRow(db: Trx, orderId: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
}

/** One line of one order (deleted or not), or undefined: an item id never reaches another order's rows. */
export async function findOrderItem(db: Trx, orderId: string, itemId: string) {
  return db.selectFrom('order_items').selectAll().where('id', '=', itemId).where('order_id', '=', orderId).executeTakeFirst();
}

/**
 * An open order's owner and one of its lines, read in one statement (a board's status change runs
 * it on every tap): 'Orden no encontrada' when the order is missing, ORDER_CLOSED when it is no
 * longer activo (as requireOpenOrder), and `item` undefined when the line is not the order's.
 * `sessionOk` (PostgreSQL, a remembered session's check) is evaluated with it: null when the
 * session did not hold or no row told (nothing is refused before the caller reads it again).
 */
export async function findOpenOrderItem(
  db: Trx,
  orderId: string,
  itemId: string,
  sessionOk?: RawBuilder<boolean>,
): Promise<{ order: Pick<OrderRow, 'id' | 'waiter_id'>; item: OrderItemRow | undefined } | null> {
  const row = await db
    .selectFrom('orders')
    .leftJoin('order_items', (join) => join.onRef('order_items.order_id', '=', 'orders.id').on('order_items.id', '=', itemId))
    .selectAll('order_items')
    .select(['orders.id as order_row_id', 'orders.status as order_status', 'orders.waiter_id as order_waiter_id'])
    .$if(sessionOk !== undefined, (qb) => qb.select(sessionOk!.as('session_ok')))
    .where('orders.id', '=', orderId)
    .executeTakeFirst();
  if (sessionOk && !row?.session_ok) return null;
  openOrThrow(row && { status: row.order_status });
  const { order_row_id, order_status: _status, order_waiter_id, session_ok: _ok, ...item } = row!;
  return { order: { id: order_row_id, waiter_id: order_waiter_id }, item: item.id === null ? undefined : (item as OrderItemRow) };
}

/** The order with its items (oldest first) and payments, or 'Orden no encontrada'. */
export async function loadOrder(db: Trx, orderId: string): Promise<Order> {
  const row = await findOrderRow(db, orderId);
  if (!row) throw notFound(ORDER_NOT_FOUND);
  return loadOrderOf(db, row);
}

/** The same, for an order row already in hand (read for an access check): its lines, payments and adjustments. */
export async function loadOrderOf(db: Trx, row: OrderRow): Promise<Order> {
  const [items, payments, adjustments] = await Promise.all([
    db.selectFrom('order_items').selectAll().where('order_id', '=', row.id).orderBy('created_at').orderBy('id').execute(),
    db.selectFrom('payments').selectAll().where('order_id', '=', row.id).orderBy('created_at').orderBy('id').execute(),
    liveAdjustmentRows(db, row.id),
  ]);
  return presentOrder(row, items, payments, adjustments);
}

/** Throws unless the order exists and is still activo: paid and cancelled orders never change. */
export async function requireOpenOrder(db: Trx, orderId: string): Promise<OrderRow> {
  return openOrThrow(await findOrderRow(db, orderId));
}

/** 'Orden no encontrada' for no row, ORDER_CLOSED for one no longer activo; else the row. */
function openOrThrow<T extends { status: string }>(row: T | undefined): T {
  if (!row) throw notFound(ORDER_NOT_FOUND);
  if (row.status !== 'activo') throw conflict(ORDER_CLOSED, 'order_closed');
  return row;
}

/**
 * Recomputes the stored subtotal from the item rows and bumps the version, in SQL, inside the
 * caller's transaction: concurrent item changes can never leave a stale total behind.
 * Only an activo order is touched; returns the new version. Its discounts and comps are
 * recomputed on the new items too (order-adjustments.ts), so the cached figures never go stale.
 */
export async function touchOrder(db: Trx, orderId: string, now: number): Promise<number> {
  return (await touchOrderRow(db, orderId, now)).version;
}

/**
 * touchOrderRow's UPDATE: the subtotal recomputed from the lines, the version bumped, and with the
 * row the order's paid parts, its number of payments and whether an adjustment is live.
 */
function touchQuery(creator: QueryCreator<Database>, orderId: string, now: number) {
  const subtotal = sql<number>`(SELECT COALESCE(SUM(product_price * quantity), 0) FROM order_items WHERE order_id = ${orderId} AND is_deleted = 0)`;
  return creator
    .updateTable('orders')
    .set({ subtotal, total: subtotal, version: sql<number>`version + 1`, updated_at: now })
    .where('id', '=', orderId)
    .where('status', '=', 'activo')
    .returningAll()
    .returning([
      sql<number>`(SELECT COALESCE(SUM(amount - tip_amount), 0) FROM payments WHERE order_id = ${orderId})`.as('paid_parts'),
      sql<number>`(SELECT COUNT(*) FROM payments WHERE order_id = ${orderId})`.as('payment_count'),
      sql<number>`(SELECT COUNT(*) FROM order_adjustments WHERE order_id = ${orderId} AND removed_at IS NULL)`.as('live_adjustments'),
    ]);
}
const touchStatement = compiledOnce((db, a: { orderId: string; now: number }) => touchQuery(db, a.orderId, a.now));

/** An INSERT built but not run (an audit entry, a print job) that goes along with touchOrderRow's UPDATE. */
export type { Rider };

/**
 * touchOrder, also giving back the order's row as the change left it when nothing else rewrites
 * it (no live adjustment, no equal shares), with its number of payments: an add answers from it
 * without reading the order again. `row` is undefined otherwise; `after` is the
 * updated row as the UPDATE returned it (its figures before any adjustment is recomputed).
 */
export async function touchOrderRow(
  db: Trx,
  orderId: string,
  now: number,
  /**
   * INSERTs that need nothing back: on PostgreSQL they ride on the UPDATE as data-modifying CTEs
   * (one round trip for all of them), on SQLite they run just before it. Either way in the
   * caller's transaction.
   */
  riders: readonly Rider[] = [],
): Promise<{ version: number; row?: OrderRow & { payment_count: number; live_adjustments: number }; after: OrderRow }> {
  // The paid parts and whether any adjustment is live come back with the update: two round
  // trips fewer on every item change.
  let row: Awaited<ReturnType<typeof touchStatement>>['rows'][number] | undefined;
  if (riders.length > 0 && db.getExecutor().adapter instanceof PostgresAdapter) {
    row = await touchQuery(withRiders(db, riders), orderId, now).executeTakeFirst();
  } else {
    for (const rider of riders) await rider.execute();
    // Alone, the UPDATE is the same text on every call: built once (db/compiled.ts).
    row = await firstRow(touchStatement, db, { orderId, now });
  }
  if (!row) throw conflict(ORDER_CLOSED, 'order_closed');
  const plain = Number(row.live_adjustments) === 0 && Number(row.discount) === 0 && Number(row.comp) === 0;
  const { discount, comp } = plain ? { discount: 0, comp: 0 } : await recomputeAdjustments(db, orderId, row);
  // Equal shares, rare: what the order owes is its share of the items, or its own share.
  const sharing = Number(row.share_amount) !== 0 || Number(row.shared_out) !== 0;
  if (sharing) {
    const total = amountOwed({ subtotal: row.subtotal, discount, comp, share_amount: row.share_amount, shared_out: row.shared_out });
    await db.updateTable('orders').set({ total }).where('id', '=', orderId).execute();
  }
  await assertPaidPartsCovered(db, orderId, { ...row, discount, comp }, Number(row.paid_parts));
  const { paid_parts: _parts, ...order } = row;
  // `after` always: its table and waiter, read under the row's lock, are what a board line shows.
  return { version: Number(row.version), row: plain && !sharing ? order : undefined, after: order };
}

export const PAID_PARTS_EXCEED = 'Ya se cobraron pagos parciales por más de lo que sumaría la orden: no se puede quitar este producto.';

/**
 * Mixed payments: an item change may never leave the amount owed below the
 * parts already paid (the balance would turn negative and the order could never close).
 */
export async function assertPaidPartsCovered(
  db: Trx,
  orderId: string,
  row: { subtotal: number; discount: number; comp: number; share_amount?: number; shared_out?: number },
  /** The parts already paid, when the caller read them already (touchOrder does). */
  knownParts?: number,
): Promise<void> {
  // Equal shares: the items left must still cover what the share checks owe.
  if (Number(row.shared_out ?? 0) > amountOwed({ subtotal: row.subtotal, discount: row.discount, comp: row.comp }))
    throw conflict(EQUAL_SHARE_MESSAGES.sharesOwed, 'shares_owed');
  let parts = knownParts;
  if (parts === undefined) {
    const paid = await db
      .selectFrom('payments')
      .select(sql<number>`COALESCE(SUM(amount - tip_amount), 0)`.as('parts'))
      .where('order_id', '=', orderId)
      .executeTakeFirst();
    parts = Number(paid?.parts ?? 0);
  }
  if (parts > amountOwed(row)) throw conflict(PAID_PARTS_EXCEED, 'paid_parts_exceed');
}
