import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * The inventory's history (docs/decisions/0059-inventory-recipe-versions.md), all additive:
 * - `recipe_versions`: every recipe a product or a modifier option has had, appended whole with
 *   the server's time it took effect; the sales worker uses the one in force when the line was
 *   added, so an edit made before the worker sees a line never rewrites it. The recipes in
 *   force today are seeded at effective_from 0.
 * - `inventory_lines.comp_units`: of the units a line has taken, those posted as comps.
 * - `warehouses.station`: the station whose sales the warehouse serves (the barra's own).
 */
export function inventoryVersions() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('recipe_versions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        // Exactly one of product_id and option_id.
        .addColumn('product_id', 'text')
        .addColumn('option_id', 'text')
        .addColumn('effective_from', 'bigint', (c) => c.notNull())
        // The whole recipe per unit, JSON [{insumoId, amount}] ('[]': consumes nothing).
        .addColumn('amounts', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .execute();
      await db.schema.createIndex('recipe_versions_product').on('recipe_versions').columns(['product_id', 'effective_from']).execute();
      await db.schema.createIndex('recipe_versions_option').on('recipe_versions').columns(['option_id', 'effective_from']).execute();
      const byOwner = new Map<
        string,
        { product_id: string | null; option_id: string | null; amounts: { insumoId: string; amount: number }[] }
      >();
      for (const r of await db.selectFrom('product_recipes').selectAll().execute()) {
        const key = `p:${r.product_id}`;
        const entry = byOwner.get(key) ?? { product_id: r.product_id as string, option_id: null, amounts: [] };
        entry.amounts.push({ insumoId: r.insumo_id, amount: Number(r.amount) });
        byOwner.set(key, entry);
      }
      for (const r of await db.selectFrom('modifier_recipes').selectAll().execute()) {
        const key = `o:${r.option_id}`;
        const entry = byOwner.get(key) ?? { product_id: null, option_id: r.option_id as string, amounts: [] };
        entry.amounts.push({ insumoId: r.insumo_id, amount: Number(r.amount) });
        byOwner.set(key, entry);
      }
      let n = 0;
      for (const v of byOwner.values()) {
        await db
          .insertInto('recipe_versions')
          .values({
            id: `seed-${(n++).toString().padStart(8, '0')}`,
            product_id: v.product_id,
            option_id: v.option_id,
            effective_from: 0,
            amounts: JSON.stringify(v.amounts),
            created_by: null,
          })
          .execute();
      }
      await db.schema
        .alterTable('inventory_lines')
        .addColumn('comp_units', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('warehouses').addColumn('station', 'text').execute();
      await db.updateTable('warehouses').set({ station: 'barra' }).where('id', '=', 'barra').execute();
    },
  };
}
