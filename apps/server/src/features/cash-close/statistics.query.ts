import { sql } from 'kysely';
import type { HourSales, ProductSales, ShiftStatistics, WaiterSales } from '@comanda/contract';
import { localHour } from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';
import type { Interval } from '../../model/shift-windows.ts';
import { type Numeric, toCents, toCount as n } from '../../model/sql-figures.ts';

const HOUR_MS = 3_600_000;
const TOP = 10;

/**
 * Sales per business-local hour. The database buckets by whole hours since the window's
 * start (a local hh:00), so no time-zone support is needed in SQL (the CAST because SQLite
 * binds parameters as reals); each bucket is then
 * named by its local hour, which stays right across a daylight-saving change.
 */
export async function salesByHour(db: Trx, window: Interval, timezone: string): Promise<HourSales[]> {
  const { rows } = await sql<{ bucket: Numeric; orders: Numeric; total: Numeric }>`
    SELECT CAST((completed_at - ${window.start}) / ${HOUR_MS} AS INTEGER) AS bucket, COUNT(*) AS orders, SUM(total) AS total
    FROM orders
    WHERE status = 'pagado' AND completed_at >= ${window.start} AND completed_at < ${window.end}
    GROUP BY 1
  `.execute(db);
  const byBucket = new Map(rows.map((r) => [n(r.bucket), r]));
  const hours = Math.ceil((window.end - window.start) / HOUR_MS);
  return Array.from({ length: hours }, (_, bucket) => {
    const start = window.start + bucket * HOUR_MS;
    const row = byBucket.get(bucket);
    return { hour: localHour(new Date(start), timezone), start, orders: n(row?.orders), total: toCents(row?.total) };
  });
}

/** Every product sold in the window (bounded by the catalogue), from non-deleted items. */
async function productSales(db: Trx, window: Interval): Promise<ProductSales[]> {
  const { rows } = await sql<{ product_id: string; product_name: string; quantity: Numeric; amount: Numeric }>`
    SELECT i.product_id, MAX(i.product_name) AS product_name, SUM(i.quantity) AS quantity, SUM(i.quantity * i.product_price) AS amount
    FROM orders o JOIN order_items i ON i.order_id = o.id
    WHERE o.status = 'pagado' AND o.completed_at >= ${window.start} AND o.completed_at < ${window.end} AND i.is_deleted = 0
    GROUP BY i.product_id
  `.execute(db);
  return rows.map((r) => ({ productId: r.product_id, productName: r.product_name, quantity: n(r.quantity), amount: toCents(r.amount) }));
}

async function waiterSales(db: Trx, window: Interval): Promise<WaiterSales[]> {
  const { rows } = await sql<{ waiter_id: string | null; waiter_name: string | null; orders: Numeric; total: Numeric; tips: Numeric }>`
    SELECT waiter_id, MAX(waiter_name) AS waiter_name, COUNT(*) AS orders, SUM(total) AS total, SUM(tip) AS tips
    FROM orders
    WHERE status = 'pagado' AND completed_at >= ${window.start} AND completed_at < ${window.end}
    GROUP BY waiter_id
  `.execute(db);
  return rows
    .map((r) => ({ waiterId: r.waiter_id, waiterName: r.waiter_name, orders: n(r.orders), total: toCents(r.total), tips: toCents(r.tips) }))
    .sort((a, b) => b.total - a.total || (a.waiterName ?? '').localeCompare(b.waiterName ?? ''));
}

const byName = (a: ProductSales, b: ProductSales) => a.productName.localeCompare(b.productName, 'es');

export async function shiftStatistics(db: Trx, window: Interval, timezone: string): Promise<ShiftStatistics> {
  const hours = await salesByHour(db, window, timezone);
  const products = await productSales(db, window);
  const waiters = await waiterSales(db, window);
  return {
    salesByHour: hours,
    topProducts: [...products].sort((a, b) => b.quantity - a.quantity || b.amount - a.amount || byName(a, b)).slice(0, TOP),
    topProductsByAmount: [...products].sort((a, b) => b.amount - a.amount || b.quantity - a.quantity || byName(a, b)).slice(0, TOP),
    salesByWaiter: waiters,
  };
}
