import type { OrderChange, OrderWriteResponse } from '@comanda/contract';
import { prefersMinimal } from '@comanda/contract';
import type { Trx } from '../../http/transaction.ts';
import type { OrderItemRow, OrderRow } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { liveAdjustmentRows } from './order-adjustments.ts';
import { presentItem, presentOrder } from './order-presenter.ts';
import { findOrderRow, loadOrder, ORDER_NOT_FOUND } from './order-repository.ts';

/** What an item write did, for its answer: the order and the item rows it created or changed. */
export interface ItemWrite {
  orderId: string;
  itemIds: readonly string[];
  /**
   * The change as the write's own transaction left it, when it had every row in hand (an add with
   * no payment, adjustment or promotion on the way): the light answer then costs no read.
   */
  change?: OrderChange | undefined;
}

/**
 * The light answer from rows the transaction holds: the order as touchOrderRow gave it back and
 * the rows the write made. Only for an order without payments or live adjustments (both empty).
 */
export function orderChangeOf(row: OrderRow, items: readonly OrderItemRow[]): OrderChange {
  const { items: _none, ...order } = presentOrder(row, [], [], []);
  return { order, items: items.map(presentItem) };
}

/**
 * The order after a write without its items, plus the rows the write touched:
 * a few rows whatever the order's size, read after commit.
 */
export async function loadOrderChange(db: Trx, write: ItemWrite): Promise<OrderChange> {
  const [row, items, payments, adjustments] = await Promise.all([
    findOrderRow(db, write.orderId),
    write.itemIds.length
      ? db.selectFrom('order_items').selectAll().where('order_id', '=', write.orderId).where('id', 'in', write.itemIds).execute()
      : Promise.resolve([]),
    db.selectFrom('payments').selectAll().where('order_id', '=', write.orderId).orderBy('created_at').orderBy('id').execute(),
    liveAdjustmentRows(db, write.orderId),
  ]);
  if (!row) throw notFound(ORDER_NOT_FOUND);
  const { items: _none, ...order } = presentOrder(row, [], payments, adjustments);
  return { order, items: items.map(presentItem) };
}

/**
 * The answer of an item write: the change when the client asked with `Prefer: return=minimal`
 * (the web app always does), else the whole order as before.
 */
export async function answerItemWrite(db: Trx, prefer: string | string[] | undefined, write: ItemWrite): Promise<OrderWriteResponse> {
  if (prefersMinimal(prefer)) return { change: write.change ?? (await loadOrderChange(db, write)) };
  return { order: await loadOrder(db, write.orderId) };
}
