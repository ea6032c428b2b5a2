import { sql } from 'kysely';
import type { ShiftSummary } from '@comanda/contract';
import type { Trx } from '../../http/transaction.ts';
import type { Interval } from '../../model/shift-windows.ts';

// Sums come back as numeric strings from PostgreSQL and as integers from SQLite.
type Numeric = number | string | null;
interface SummaryRow {
  orders: Numeric;
  sales: Numeric;
  tips: Numeric;
  subtotal: Numeric;
  efectivo: Numeric;
  tarjeta: Numeric;
  transferencia: Numeric;
  items: Numeric;
  avg_tip_bps: Numeric;
}

const n = (v: Numeric): number => (v === null ? 0 : Number(v));

/**
 * The shift summary (SPEC §3) in one statement, summed by the database in centavos: only
 * the orders inside the window are read, through the (status, completed_at) index, and
 * their items and payments by their order_id indexes. Nothing is loaded into memory.
 */
export async function shiftSummary(db: Trx, window: Interval): Promise<ShiftSummary> {
  const { rows } = await sql<SummaryRow>`
    WITH shift AS (
      SELECT id, total, tip, subtotal, payment_method FROM orders
      WHERE status = 'pagado' AND completed_at >= ${window.start} AND completed_at < ${window.end}
    )
    SELECT
      COUNT(*) AS orders,
      SUM(total) AS sales,
      SUM(tip) AS tips,
      SUM(subtotal) AS subtotal,
      SUM(CASE WHEN payment_method = 'efectivo' THEN total ELSE 0 END) AS efectivo,
      SUM(CASE WHEN payment_method = 'tarjeta' THEN total ELSE 0 END) AS tarjeta,
      SUM(CASE WHEN payment_method = 'transferencia' THEN total ELSE 0 END) AS transferencia,
      (SELECT SUM(i.quantity) FROM shift s JOIN order_items i ON i.order_id = s.id WHERE i.is_deleted = 0) AS items,
      (SELECT AVG(p.tip_bps) FROM shift s JOIN payments p ON p.order_id = s.id WHERE s.tip > 0) AS avg_tip_bps
    FROM shift
  `.execute(db);
  const row = rows[0];
  const totalOrders = n(row?.orders ?? 0);
  const totalSales = n(row?.sales ?? 0);
  return {
    totalSales,
    totalOrders,
    totalItems: n(row?.items ?? 0),
    totalTips: n(row?.tips ?? 0),
    totalSubtotal: n(row?.subtotal ?? 0),
    paymentMethods: { efectivo: n(row?.efectivo ?? 0), tarjeta: n(row?.tarjeta ?? 0), transferencia: n(row?.transferencia ?? 0) },
    // Average ticket = total sales / orders (SPEC §9), to the nearest centavo.
    averageOrderValue: totalOrders > 0 ? Math.round(totalSales / totalOrders) : 0,
    // Tip rates are stored in basis points; 1 500 bps is 15 %, kept to two decimals.
    averageTipPercent: Math.round(n(row?.avg_tip_bps ?? 0)) / 100,
  };
}
