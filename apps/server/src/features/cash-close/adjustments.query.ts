import { sql } from 'kysely';
import type { AdjustmentsSummary, AdjustmentTotalsRow } from '@comanda/contract';
import type { Trx } from '../../http/transaction.ts';
import type { Interval } from '../../model/shift-windows.ts';
import { type Numeric, toCents, toCount as n } from '../../model/sql-figures.ts';
import { addCents } from '@comanda/domain';

interface GroupRow {
  key: string;
  discount_count: Numeric;
  discount_amount: Numeric;
  comp_count: Numeric;
  comp_amount: Numeric;
}

/**
 * "Descuentos y cortesías" of the cash close (decision 0017): the live discounts and comps of the
 * orders paid inside the shift window, summed by reason and by the user who applied them, with
 * what each took off when the order was paid. Removed adjustments and open orders do not count.
 */
export async function shiftAdjustments(db: Trx, window: Interval): Promise<AdjustmentsSummary> {
  const grouped = async (column: 'reason' | 'created_by_name'): Promise<AdjustmentTotalsRow[]> => {
    const { rows } = await sql<GroupRow>`
      SELECT a.${sql.ref(column)} AS key,
        SUM(CASE WHEN a.kind = 'discount' THEN 1 ELSE 0 END) AS discount_count,
        SUM(CASE WHEN a.kind = 'discount' THEN a.amount ELSE 0 END) AS discount_amount,
        SUM(CASE WHEN a.kind = 'comp' THEN 1 ELSE 0 END) AS comp_count,
        SUM(CASE WHEN a.kind = 'comp' THEN a.amount ELSE 0 END) AS comp_amount
      FROM orders o JOIN order_adjustments a ON a.order_id = o.id
      WHERE o.status = 'pagado' AND o.completed_at >= ${window.start} AND o.completed_at < ${window.end}
        AND a.removed_at IS NULL
      GROUP BY a.${sql.ref(column)}
      ORDER BY SUM(a.amount) DESC, a.${sql.ref(column)}
    `.execute(db);
    return rows.map((r) => ({
      key: r.key,
      discountCount: n(r.discount_count),
      discountAmount: toCents(r.discount_amount),
      compCount: n(r.comp_count),
      compAmount: toCents(r.comp_amount),
    }));
  };
  const byReason = await grouped('reason');
  const byUser = await grouped('created_by_name');
  return {
    totalDiscounts: addCents(...byReason.map((r) => r.discountAmount)),
    totalComps: addCents(...byReason.map((r) => r.compAmount)),
    byReason,
    byUser,
  };
}
