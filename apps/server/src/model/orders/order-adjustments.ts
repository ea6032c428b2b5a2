import type { OrderAdjustment } from '@comanda/contract';
import { cents, computeAdjustments, type AdjustedFigures, type AdjustmentLine, type AdjustmentSpec } from '@comanda/domain';
import type { OrderAdjustmentRow, OrderItemRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { withShares } from '../checkout/amount-owed.ts';

/** The live (not removed) discounts and comps of an order, in the order they were made. */
export async function liveAdjustmentRows(db: Trx, orderId: string): Promise<OrderAdjustmentRow[]> {
  return db
    .selectFrom('order_adjustments')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('removed_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function adjustmentSpec(row: OrderAdjustmentRow): AdjustmentSpec {
  return {
    id: row.id,
    kind: row.kind,
    itemId: row.item_id,
    units: row.units === null ? null : Number(row.units),
    percentBps: row.percent_bps === null ? null : Number(row.percent_bps),
    requestedAmount: row.requested_amount === null ? null : cents(Number(row.requested_amount)),
  };
}

export function presentAdjustment(row: OrderAdjustmentRow): OrderAdjustment {
  return {
    ...adjustmentSpec(row),
    amount: cents(Number(row.amount)),
    reason: row.reason,
    note: row.note,
    authorizedBy: row.authorized_by,
    authorizedByName: row.authorized_by_name,
    createdBy: row.created_by,
    createdByName: row.created_by_name,
    createdAt: Number(row.created_at),
  };
}

async function adjustmentLines(db: Trx, orderId: string): Promise<AdjustmentLine[]> {
  const rows = await db
    .selectFrom('order_items')
    .select(['id', 'product_price', 'quantity', 'is_deleted'])
    .where('order_id', '=', orderId)
    .execute();
  return linesOf(rows);
}

/** The order's item rows as the adjustments see them (their order does not matter: lines are found by id). */
export function linesOf(rows: readonly Pick<OrderItemRow, 'id' | 'product_price' | 'quantity' | 'is_deleted'>[]): AdjustmentLine[] {
  return rows.map((r) => ({
    id: r.id,
    productPrice: cents(Number(r.product_price)),
    quantity: Number(r.quantity),
    isDeleted: Number(r.is_deleted) === 1,
  }));
}

/**
 * The order's figures as its items and live adjustments stand now, computed (not read from the
 * cache). `extra` is an adjustment about to be made, to learn what it would take off.
 */
export async function computeOrderFigures(
  db: Trx,
  orderId: string,
  opts: {
    extra?: AdjustmentSpec;
    /** The order's lines when the caller read them under the order's lock already (linesOf). */
    lines?: readonly AdjustmentLine[];
    /** Its live adjustments, when the caller read them under the lock already (checkoutRows). */
    rows?: readonly OrderAdjustmentRow[];
  } = {},
): Promise<AdjustedFigures> {
  const { extra } = opts;
  const [lines, rows] = await Promise.all([opts.lines ?? adjustmentLines(db, orderId), opts.rows ?? liveAdjustmentRows(db, orderId)]);
  const specs = rows.map(adjustmentSpec);
  return computeAdjustments(lines, extra ? [...specs, extra] : specs);
}

/**
 * After any item change (called by touchOrder) or adjustment, inside the caller's transaction and
 * after the order row is locked: recomputes what each live adjustment takes off (percent
 * discounts re-apply, amount discounts and comps clamp to what is left) and caches the sums in
 * `orders.discount` / `orders.comp`, with `orders.total` = what is owed before the tip.
 * An order without adjustments costs one indexed read.
 */
export async function recomputeAdjustments(
  db: Trx,
  orderId: string,
  cached: { discount: number; comp: number; share_amount?: number; shared_out?: number },
  /** The live adjustments and the order's lines when the caller read them under the order's lock already. */
  known?: { rows: OrderAdjustmentRow[]; lines: readonly AdjustmentLine[] },
): Promise<{ discount: number; comp: number; rows: OrderAdjustmentRow[] }> {
  const read = known?.rows ?? (await liveAdjustmentRows(db, orderId));
  if (read.length === 0 && Number(cached.discount) === 0 && Number(cached.comp) === 0) return { discount: 0, comp: 0, rows: [] };
  const figures = computeAdjustments(known?.lines ?? (await adjustmentLines(db, orderId)), read.map(adjustmentSpec));
  // The live rows as this leaves them (the amounts it rewrote), for a caller that presents them.
  const rows: OrderAdjustmentRow[] = [];
  for (const row of read) {
    const amount = figures.amounts.get(row.id) ?? 0;
    if (Number(row.amount) === amount) {
      rows.push(row);
      continue;
    }
    await db.updateTable('order_adjustments').set({ amount }).where('id', '=', row.id).execute();
    rows.push({ ...row, amount });
  }
  await db
    .updateTable('orders')
    .set({ discount: figures.discounts, comp: figures.comps, total: withShares(figures.owed, cached) })
    .where('id', '=', orderId)
    .where('status', '=', 'activo')
    .execute();
  return { discount: figures.discounts, comp: figures.comps, rows };
}
