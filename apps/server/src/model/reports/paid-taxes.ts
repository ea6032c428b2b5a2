import { sumBreakdowns, type TaxBreakdown } from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';

/**
 * The taxes of the checks paid in [start, end): their frozen breakdowns (docs/decisions/
 * 0051-tax-breakdown.md) added up group by group, never recomputed from the catalogue. Read
 * through the (status, completed_at) index: a shift's or a drawer session's checks only.
 */
export async function paidTaxes(db: Trx, window: { start: number; end: number }): Promise<TaxBreakdown> {
  const rows = await db
    .selectFrom('orders')
    .select('tax_breakdown')
    .where('status', '=', 'pagado')
    .where('completed_at', '>=', window.start)
    .where('completed_at', '<', window.end)
    .execute();
  const list: TaxBreakdown[] = [];
  for (const r of rows) if (r.tax_breakdown) list.push(JSON.parse(r.tax_breakdown) as TaxBreakdown);
  return sumBreakdowns(list);
}
