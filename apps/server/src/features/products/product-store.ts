import type { Product } from '@comanda/contract';
import { cents, isTaxTreatment } from '@comanda/domain';
import type { ProductRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { notFound } from '../../http/errors.ts';
import { MESSAGES } from '../../http/messages.ts';

export const PRODUCT_NOT_FOUND = MESSAGES.notFound.product;

// Spanish ordering: accents and case do not move a name ("Águila" sorts with "Agua").
const byName = new Intl.Collator('es-MX', { sensitivity: 'base', numeric: true });

export function presentProduct(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: cents(Number(row.price)),
    category: row.category,
    imageUrl: row.image_url,
    available: row.available === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    taxTreatment: isTaxTreatment(row.tax_treatment) ? row.tax_treatment : 'iva16',
    satProductKey: row.sat_product_key,
    satUnitKey: row.sat_unit_key,
    iepsRateBp: row.ieps_rate_bp === null ? null : Number(row.ieps_rate_bp),
  };
}

/** The catalogue sorted by name the way a Mexican reader expects; optionally only what can be ordered. */
export async function listProducts(db: Trx, onlyAvailable: boolean): Promise<Product[]> {
  let query = db.selectFrom('products').selectAll();
  if (onlyAvailable) query = query.where('available', '=', 1);
  const rows = await query.execute();
  return rows.map(presentProduct).sort((a, b) => byName.compare(a.name, b.name) || a.id.localeCompare(b.id));
}

export async function requireProduct(db: Trx, id: string): Promise<ProductRow> {
  const row = await db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(PRODUCT_NOT_FOUND);
  return row;
}

/**
 * The picker's "Más vendidos": the available products with the most units sold in the last `days`
 * days, most first. Read from the report rollup (paid orders, voids already out, keyed by the
 * business-local hour: decision 0020), so it costs a week of hourly rows, never a scan of items.
 */
export async function topSellers(db: Trx, since: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('report_products as r')
    .innerJoin('products as p', 'p.id', 'r.product_id')
    .select((eb) => ['r.product_id as productId', eb.fn.sum<number | string>('r.units').as('units')])
    .where('r.slot', '>=', since)
    .where('p.available', '=', 1)
    .groupBy('r.product_id')
    .execute();
  return rows
    .map((r) => ({ id: r.productId, units: Number(r.units) }))
    .filter((r) => r.units > 0)
    .sort((a, b) => b.units - a.units || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map((r) => r.id);
}
