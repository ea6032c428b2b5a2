import {
  chargedLines,
  isTaxTreatment,
  keyedAmounts,
  keyedConcepts,
  type CfdiConcept,
  type KeyedAmount,
  type KeyedLine,
  type TaxBreakdown,
  type TaxTreatment,
} from '@comanda/domain';
import type { Db } from '../../db/connect.ts';
import { taxLineOf } from '../checkout/tax-breakdown.ts';
import { defaultTreatment } from '../fiscal-store.ts';
import { adjustmentSpec } from '../orders/order-adjustments.ts';

/**
 * What each SAT product key and unit key of these paid checks charged, per rate (the domain's
 * keyedAmounts over their lines after voids and adjustments): frozen on the receipt's row when it
 * is queued, right after the close, so a product's keys edited later do not change a CFDI.
 * Three reads whatever the number of checks.
 */
export async function conceptKeysOf(db: Db['db'], orderIds: readonly string[]): Promise<Map<string, KeyedAmount[]>> {
  const out = new Map<string, KeyedAmount[]>();
  if (!orderIds.length) return out;
  const ids = [...orderIds];
  const [items, adjustments] = await Promise.all([
    db.selectFrom('order_items').selectAll().where('order_id', 'in', ids).orderBy('created_at').orderBy('id').execute(),
    db
      .selectFrom('order_adjustments')
      .selectAll()
      .where('order_id', 'in', ids)
      .where('removed_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  const productIds = [...new Set(items.map((i) => i.product_id))];
  const products = productIds.length
    ? await db
        .selectFrom('products')
        .select(['id', 'tax_treatment', 'ieps_rate_bp', 'sat_product_key', 'sat_unit_key'])
        .where('id', 'in', productIds)
        .execute()
    : [];
  const productOf = new Map(products.map((p) => [p.id, p]));
  let fallback: TaxTreatment | undefined;
  const linesOf = new Map<string, KeyedLine[]>();
  for (const item of items) {
    const p = productOf.get(item.product_id);
    const treatment = p && isTaxTreatment(p.tax_treatment) ? p.tax_treatment : (fallback ??= await defaultTreatment(db));
    const list = linesOf.get(item.order_id) ?? [];
    list.push({ ...taxLineOf(item, p, treatment), productKey: p?.sat_product_key ?? null, unitKey: p?.sat_unit_key ?? null });
    linesOf.set(item.order_id, list);
  }
  const specsOf = new Map<string, typeof adjustments>();
  for (const a of adjustments) {
    const list = specsOf.get(a.order_id);
    if (list) list.push(a);
    else specsOf.set(a.order_id, [a]);
  }
  for (const id of ids) {
    const lines = linesOf.get(id) ?? [];
    const specs = (specsOf.get(id) ?? []).map(adjustmentSpec);
    out.set(id, lines.length ? keyedAmounts(chargedLines(lines, specs)) : []);
  }
  return out;
}

/** A receipt's concepts: its check's frozen breakdown under the keys frozen on its row (the defaults where none). */
export function receiptConcepts(breakdown: TaxBreakdown, frozenKeys: string | null): CfdiConcept[] {
  return keyedConcepts(breakdown, frozenKeys ? (JSON.parse(frozenKeys) as KeyedAmount[]) : null);
}
