import type { Product } from '@comanda/contract';
import type { ProductRow } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { notFound } from '../../http/errors.ts';

export const PRODUCT_NOT_FOUND = 'Producto no encontrado';

// Spanish ordering: accents and case do not move a name ("Águila" sorts with "Agua").
const byName = new Intl.Collator('es-MX', { sensitivity: 'base', numeric: true });

export function presentProduct(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: Number(row.price),
    category: row.category,
    imageUrl: row.image_url,
    available: row.available === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
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
