import { sql } from 'kysely';
import type { ShiftSummary } from '@comanda/contract';
import type { Trx } from '../../http/transaction.ts';
import type { Interval } from '../../model/shift-windows.ts';
import { type Numeric, toCents, toCount as n } from '../../model/sql-figures.ts';
import { cents, ZERO } from '@comanda/domain';

// Sums come back as numeric strings from PostgreSQL and as integers from SQLite.
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
  first_folio: Numeric;
  last_folio: Numeric;
  mixed: Numeric;
}

/**
 * The shift summary (SPEC §3) in one statement, summed by the database in centavos: only
 * the orders inside the window are read, through the (status, completed_at) index, and
 * their items and payments by their order_id indexes. Nothing is loaded into memory.
 */
export async function shiftSummary(db: Trx, window: Interval): Promise<ShiftSummary> {
  const { rows } = await sql<SummaryRow>`
    WITH shift AS (
      SELECT id, total, tip, subtotal, payment_method, folio FROM orders
      WHERE status = 'pagado' AND completed_at >= ${window.start} AND completed_at < ${window.end}
    )
    SELECT
      COUNT(*) AS orders,
      SUM(total) AS sales,
      SUM(tip) AS tips,
      SUM(subtotal) AS subtotal,
      -- Per method from the payment rows: an order paid in parts counts each part under its method.
      (SELECT SUM(p.amount) FROM shift s JOIN payments p ON p.order_id = s.id WHERE p.method = 'efectivo') AS efectivo,
      (SELECT SUM(p.amount) FROM shift s JOIN payments p ON p.order_id = s.id WHERE p.method = 'tarjeta') AS tarjeta,
      (SELECT SUM(p.amount) FROM shift s JOIN payments p ON p.order_id = s.id WHERE p.method = 'transferencia') AS transferencia,
      (SELECT SUM(i.quantity) FROM shift s JOIN order_items i ON i.order_id = s.id WHERE i.is_deleted = 0) AS items,
      (SELECT AVG(p.tip_bps) FROM shift s JOIN payments p ON p.order_id = s.id WHERE s.tip > 0) AS avg_tip_bps,
      MIN(folio) AS first_folio,
      MAX(folio) AS last_folio,
      (SELECT COUNT(*) FROM shift s WHERE (SELECT COUNT(*) FROM payments p WHERE p.order_id = s.id) > 1) AS mixed
    FROM shift
  `.execute(db);
  const row = rows[0];
  const totalOrders = n(row?.orders ?? 0);
  const totalSales = toCents(row?.sales);
  return {
    totalSales,
    totalOrders,
    totalItems: n(row?.items ?? 0),
    totalTips: toCents(row?.tips),
    totalSubtotal: toCents(row?.subtotal),
    paymentMethods: { efectivo: toCents(row?.efectivo), tarjeta: toCents(row?.tarjeta), transferencia: toCents(row?.transferencia) },
    // Average ticket = total sales / orders (SPEC §9), to the nearest centavo.
    averageOrderValue: totalOrders > 0 ? cents(Math.round(totalSales / totalOrders)) : ZERO,
    // Tip rates are stored in basis points; 1 500 bps is 15 %, kept to two decimals.
    averageTipPercent: Math.round(n(row?.avg_tip_bps ?? 0)) / 100,
    folios: row?.first_folio != null && row.last_folio != null ? { first: n(row.first_folio), last: n(row.last_folio) } : null,
    mixedOrders: n(row?.mixed ?? 0),
  };
}
