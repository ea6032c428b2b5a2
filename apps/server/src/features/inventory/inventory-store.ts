import type { Insumo, RecipesResponse, StockCount, Warehouse } from '@comanda/contract';
import type { Trx } from '../../http/transaction.ts';

/** Reads of the inventory: insumos with their presentations and stock, recipes, warehouses. */

export async function listWarehouses(db: Trx): Promise<Warehouse[]> {
  return db.selectFrom('warehouses').select(['id', 'name']).orderBy('position').orderBy('name').execute();
}

/** Stock per insumo and warehouse: the ledger's sum, optionally up to (not including) `before`. */
export async function stockByInsumo(
  db: Trx,
  opts: { before?: number; warehouseId?: string } = {},
): Promise<Map<string, Record<string, number>>> {
  let q = db
    .selectFrom('stock_movements')
    .select(['insumo_id', 'warehouse_id', (eb) => eb.fn.sum<number>('qty').as('qty')])
    .groupBy(['insumo_id', 'warehouse_id']);
  if (opts.before !== undefined) q = q.where('at', '<', opts.before);
  if (opts.warehouseId) q = q.where('warehouse_id', '=', opts.warehouseId);
  const out = new Map<string, Record<string, number>>();
  for (const r of await q.execute()) {
    const row = out.get(r.insumo_id) ?? {};
    row[r.warehouse_id] = Number(r.qty);
    out.set(r.insumo_id, row);
  }
  return out;
}

export async function listInsumos(db: Trx, opts: { includeInactive?: boolean } = {}): Promise<Insumo[]> {
  let q = db.selectFrom('insumos').selectAll().orderBy('name');
  if (!opts.includeInactive) q = q.where('active', '=', 1);
  const rows = await q.execute();
  const presentations = await db.selectFrom('insumo_presentations').selectAll().where('active', '=', 1).orderBy('created_at').execute();
  const stock = await stockByInsumo(db);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    unit: r.unit,
    minStock: Number(r.min_stock),
    pourSize: r.pour_size === null ? null : Number(r.pour_size),
    lastCostCents: r.last_cost_cents === null ? null : Number(r.last_cost_cents),
    lastCostContent: r.last_cost_content === null ? null : Number(r.last_cost_content),
    active: r.active === 1,
    stock: stock.get(r.id) ?? {},
    presentations: presentations
      .filter((p) => p.insumo_id === r.id)
      .map((p) => ({
        id: p.id,
        name: p.name,
        content: Number(p.content),
        tareG: p.tare_g === null ? null : Number(p.tare_g),
        densityMgPerMl: p.density_mg_ml === null ? null : Number(p.density_mg_ml),
        lastCostCents: p.last_cost_cents === null ? null : Number(p.last_cost_cents),
      })),
  }));
}

export async function findInsumo(db: Trx, id: string): Promise<Insumo | null> {
  return (await listInsumos(db, { includeInactive: true })).find((i) => i.id === id) ?? null;
}

export async function listRecipes(db: Trx): Promise<RecipesResponse> {
  const products = new Map<string, { insumoId: string; amount: number }[]>();
  for (const r of await db.selectFrom('product_recipes').selectAll().orderBy('product_id').orderBy('insumo_id').execute()) {
    const list = products.get(r.product_id) ?? [];
    list.push({ insumoId: r.insumo_id, amount: Number(r.amount) });
    products.set(r.product_id, list);
  }
  const options = new Map<string, { insumoId: string; amount: number }[]>();
  for (const r of await db.selectFrom('modifier_recipes').selectAll().orderBy('option_id').orderBy('insumo_id').execute()) {
    const list = options.get(r.option_id) ?? [];
    list.push({ insumoId: r.insumo_id, amount: Number(r.amount) });
    options.set(r.option_id, list);
  }
  const auto = new Set((await db.selectFrom('product_auto_agotado').select('product_id').execute()).map((r) => r.product_id));
  for (const id of auto) if (!products.has(id)) products.set(id, []);
  return {
    products: [...products].map(([productId, items]) => ({ productId, items, autoAgotado: auto.has(productId) })),
    options: [...options].map(([optionId, items]) => ({ optionId, items })),
  };
}

export async function loadCount(db: Trx, id: string): Promise<StockCount> {
  const row = await db.selectFrom('stock_counts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const lines = await db.selectFrom('stock_count_lines').selectAll().where('count_id', '=', id).orderBy('insumo_id').execute();
  return {
    id: row.id,
    warehouseId: row.warehouse_id,
    countedByName: row.counted_by_name,
    createdAt: Number(row.created_at),
    lines: lines.map((l) => ({
      insumoId: l.insumo_id,
      theoretical: Number(l.theoretical),
      counted: Number(l.counted),
      adjustment: Number(l.adjustment),
    })),
  };
}
