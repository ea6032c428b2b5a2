import {
  cents,
  flatBreakdown,
  isTaxTreatment,
  splitBreakdown,
  subtractBreakdown,
  sumBreakdowns,
  taxBreakdown,
  type Cents,
  type TaxBreakdown,
  type TaxLine,
  type TaxTreatment,
} from '@comanda/domain';
import type { OrderAdjustmentRow, OrderItemRow, OrderRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { defaultTreatment } from '../fiscal-store.ts';
import { adjustmentSpec, liveAdjustmentRows } from '../orders/order-adjustments.ts';

/**
 * A check's tax breakdown (docs/decisions/0051-tax-breakdown.md), computed here in TypeScript by
 * the domain from the rows a close or a split already read, and frozen on the paid check.
 */

/** A product's taxes as a close reads them with the order's lines. */
export interface ProductTax {
  id: string;
  tax_treatment: string;
  ieps_rate_bp: number | string | null;
}

/** The taxes of the products an order's lines name (SQLite's read; PostgreSQL reads them with the close's rows). */
export function productTaxRows(trx: Trx, productIds: readonly string[]): Promise<ProductTax[]> {
  if (productIds.length === 0) return Promise.resolve([]);
  return trx
    .selectFrom('products')
    .select(['id', 'tax_treatment', 'ieps_rate_bp'])
    .where('id', 'in', [...new Set(productIds)])
    .orderBy('id')
    .execute();
}

/** The lines with their product's treatment; a product since deleted takes the site's default. */
async function taxLines(trx: Trx, items: readonly OrderItemRow[], taxes: readonly ProductTax[]): Promise<TaxLine[]> {
  const byId = new Map(taxes.map((t) => [t.id, t]));
  let fallback: TaxTreatment | undefined;
  const lines: TaxLine[] = [];
  for (const item of items) {
    const tax = byId.get(item.product_id);
    const treatment = tax && isTaxTreatment(tax.tax_treatment) ? tax.tax_treatment : (fallback ??= await defaultTreatment(trx));
    lines.push(taxLineOf(item, tax, treatment));
  }
  return lines;
}

/** One order line as the domain's tax rules read it, under the treatment its product resolved to. */
export function taxLineOf(
  item: Pick<OrderItemRow, 'id' | 'product_price' | 'quantity' | 'is_deleted'>,
  tax: Pick<ProductTax, 'ieps_rate_bp'> | undefined,
  treatment: TaxTreatment,
): TaxLine {
  return {
    id: item.id,
    productPrice: cents(Number(item.product_price)),
    quantity: Number(item.quantity),
    isDeleted: Number(item.is_deleted) === 1,
    treatment,
    iepsRateBp: tax?.ieps_rate_bp == null ? null : Number(tax.ieps_rate_bp),
  };
}

/** What an order's items charge (after voids, comps, discounts and promotions), broken down. */
export async function itemsBreakdown(
  trx: Trx,
  rows: { items: readonly OrderItemRow[]; adjustments: readonly OrderAdjustmentRow[]; taxes: readonly ProductTax[] },
): Promise<TaxBreakdown> {
  return taxBreakdown(await taxLines(trx, rows.items, rows.taxes), rows.adjustments.map(adjustmentSpec));
}

/**
 * The breakdown an order's equal shares carry, written at the split: the whole's breakdown
 * divided into [what the order keeps, share 1, …] by the domain, so the parts add up to it exactly.
 */
export function sharesBreakdown(
  whole: TaxBreakdown,
  keep: Cents,
  shares: readonly Cents[],
): { kept: TaxBreakdown; shares: TaxBreakdown[] } {
  const [kept, ...rest] = splitBreakdown(whole, [keep, ...shares]);
  return { kept: kept!, shares: rest };
}

/**
 * The breakdown frozen on a check at its close. `items` is its items' own; an order split into
 * equal shares keeps the whole less what its shares carry (as stored at the split), and a share
 * check carries what the split gave it. When the order changed since (its part no longer that
 * difference), its part is divided from its items' breakdown in proportion instead: exact to
 * what it charges either way.
 */
export function closingBreakdown(input: {
  items: TaxBreakdown;
  /** What the items charge after adjustments, before shares. */
  itemsOwed: Cents;
  sharedOut: Cents;
  shareAmount: Cents;
  /** The order's stored tax_breakdown: at the split, what its shares carry, or a share check's own. */
  stored: TaxBreakdown | null;
  fallback: TaxTreatment;
}): TaxBreakdown {
  const { items, sharedOut, shareAmount, stored } = input;
  const keep = cents(Math.max(0, input.itemsOwed - sharedOut));
  let own = items;
  if (sharedOut > 0) {
    const left = stored ? subtractBreakdown(items, stored) : null;
    own =
      left && left.amount === keep
        ? left
        : items.amount >= keep
          ? splitBreakdown(items, [keep, cents(items.amount - keep)])[0]!
          : flatBreakdown(keep, input.fallback, false);
  }
  if (shareAmount <= 0) return own;
  const share =
    stored && sharedOut === 0 && stored.amount === shareAmount ? stored : flatBreakdown(shareAmount, input.fallback, stored === null);
  return own.amount === 0 ? share : sumBreakdowns([own, share]);
}

/**
 * What an open check's close would freeze, before its tip: the same rows and the same domain
 * functions as the close, read now (the checkout shows it; the frozen one is the close's).
 * A paid check answers its frozen breakdown, never recomputed.
 */
export async function currentBreakdown(trx: Trx, order: OrderRow): Promise<TaxBreakdown> {
  if (order.status === 'pagado' && order.tax_breakdown) return JSON.parse(order.tax_breakdown) as TaxBreakdown;
  const rows = await trx
    .selectFrom('order_items')
    .selectAll()
    .where('order_id', '=', order.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const adjustments = await liveAdjustmentRows(trx, order.id);
  const taxes = await productTaxRows(
    trx,
    rows.map((i) => i.product_id),
  );
  const items = await itemsBreakdown(trx, { items: rows, adjustments, taxes });
  const sharedOut = cents(Number(order.shared_out));
  const shareAmount = cents(Number(order.share_amount));
  if (sharedOut === 0 && shareAmount === 0) return items;
  return closingBreakdown({
    items,
    itemsOwed: items.amount,
    sharedOut,
    shareAmount,
    stored: order.tax_breakdown ? (JSON.parse(order.tax_breakdown) as TaxBreakdown) : null,
    fallback: await defaultTreatment(trx),
  });
}
