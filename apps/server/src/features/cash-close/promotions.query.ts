import { cents } from '@comanda/domain';
import { sql } from 'kysely';
import type { PromotionDiscountsResponse } from '@comanda/contract';
import type { Trx } from '../../http/transaction.ts';
import type { Interval } from '../../model/shift-windows.ts';

type Numeric = number | string | null;
const n = (v: Numeric): number => (v === null ? 0 : Number(v));

/**
 * "Descuentos por promoción" (decision 0028): what promotions took off the live items of the orders
 * paid in the shift — (list price − price charged) × units — by promotion name. The shift's
 * subtotal and sales already hold the promotion prices; this says how much they gave away.
 */
export async function shiftPromotionDiscounts(db: Trx, window: Interval, date: string): Promise<PromotionDiscountsResponse> {
  const { rows } = await sql<{ name: string; units: Numeric; amount: Numeric }>`
    SELECT i.promotion_name AS name, SUM(i.quantity) AS units, SUM((i.list_price - i.product_price) * i.quantity) AS amount
    FROM orders o JOIN order_items i ON i.order_id = o.id
    WHERE o.status = 'pagado' AND o.completed_at >= ${window.start} AND o.completed_at < ${window.end}
      AND i.is_deleted = 0 AND i.promotion_name IS NOT NULL AND i.list_price > i.product_price
    GROUP BY i.promotion_name
    ORDER BY SUM((i.list_price - i.product_price) * i.quantity) DESC, i.promotion_name
  `.execute(db);
  const byPromotion = rows.map((r) => ({ name: r.name, units: n(r.units), amount: cents(n(r.amount)) }));
  return { date, total: cents(byPromotion.reduce((sum, r) => sum + r.amount, 0)), byPromotion };
}
