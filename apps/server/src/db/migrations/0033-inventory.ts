import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * The bar's inventory (docs/decisions/0055-inventory-ledger.md): insumos in exact integer units,
 * their purchase presentations (content, tare and density to weigh an open bottle), warehouses
 * (bodega and barra seeded), recipes of products and of modifier options, each order line's
 * recipe frozen when the inventory worker first sees it, an append-only stock ledger whose
 * (source_key, insumo_id) is unique so a line's sale is written exactly once, purchases with
 * the supplier concepts' remembered mapping, and counts.
 */
export function inventory() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('warehouses')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db
        .insertInto('warehouses')
        .values([
          { id: 'bodega', name: 'Bodega', position: 0, created_at: 0 },
          { id: 'barra', name: 'Barra', position: 1, created_at: 0 },
        ])
        .execute();
      await db.schema
        .createTable('insumos')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('unit', 'text', (c) => c.notNull())
        .addColumn('min_stock', 'bigint', (c) => c.notNull().defaultTo(0))
        // One pour in the insumo's unit (a caballito: 45 ml); null: not poured.
        .addColumn('pour_size', 'bigint')
        // Last cost: centavos paid for `last_cost_content` units (a presentation's price and content).
        .addColumn('last_cost_cents', 'bigint')
        .addColumn('last_cost_content', 'bigint')
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('insumo_presentations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('insumo_id', 'text', (c) => c.notNull().references('insumos.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('content', 'bigint', (c) => c.notNull())
        .addColumn('tare_g', 'integer')
        .addColumn('density_mg_ml', 'integer')
        .addColumn('last_cost_cents', 'bigint')
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('insumo_presentations_insumo').on('insumo_presentations').column('insumo_id').execute();
      await db.schema
        .createTable('product_recipes')
        .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('insumo_id', 'text', (c) => c.notNull().references('insumos.id').onDelete('cascade'))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('product_recipes_pk', ['product_id', 'insumo_id'])
        .execute();
      await db.schema
        .createTable('modifier_recipes')
        .addColumn('option_id', 'text', (c) => c.notNull().references('modifier_options.id').onDelete('cascade'))
        .addColumn('insumo_id', 'text', (c) => c.notNull().references('insumos.id').onDelete('cascade'))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('modifier_recipes_pk', ['option_id', 'insumo_id'])
        .execute();
      // A line's recipe per unit, frozen the first time the worker sees it, and the units it has
      // accounted for so far (a partial void lowers them).
      await db.schema
        .createTable('inventory_lines')
        .addColumn('line_id', 'text', (c) => c.primaryKey())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('recipe', 'text', (c) => c.notNull())
        .addColumn('units', 'integer', (c) => c.notNull())
        // Changes posted so far: the next movement's source key is 'line:<id>:<step>'.
        .addColumn('step', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('closed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('waiter_id', 'text')
        .addColumn('waiter_name', 'text')
        .addColumn('station', 'text', (c) => c.notNull())
        .addColumn('sold_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('stock_movements')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('warehouse_id', 'text', (c) => c.notNull().references('warehouses.id'))
        .addColumn('insumo_id', 'text', (c) => c.notNull().references('insumos.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('qty', 'bigint', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('line_id', 'text')
        .addColumn('purchase_id', 'text')
        .addColumn('count_id', 'text')
        .addColumn('transfer_id', 'text')
        // What wrote the row, once: 'line:<line id>:<step>' for the worker's rows; unique per insumo.
        .addColumn('source_key', 'text')
        .addColumn('waiter_id', 'text')
        .addColumn('station', 'text')
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text')
        .execute();
      await db.schema.createIndex('stock_movements_once').on('stock_movements').columns(['source_key', 'insumo_id']).unique().execute();
      await db.schema.createIndex('stock_movements_stock').on('stock_movements').columns(['warehouse_id', 'insumo_id', 'at']).execute();
      await db.schema.createIndex('stock_movements_at').on('stock_movements').column('at').execute();
      await db.schema
        .createTable('purchases')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('warehouse_id', 'text', (c) => c.notNull().references('warehouses.id'))
        .addColumn('supplier_rfc', 'text')
        .addColumn('supplier_name', 'text')
        .addColumn('invoice_uuid', 'text')
        .addColumn('subtotal_cents', 'bigint', (c) => c.notNull())
        .addColumn('iva_cents', 'bigint', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_by_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('purchases_invoice').on('purchases').column('invoice_uuid').unique().execute();
      await db.schema
        .createTable('purchase_lines')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('purchase_id', 'text', (c) => c.notNull().references('purchases.id').onDelete('cascade'))
        .addColumn('presentation_id', 'text', (c) => c.notNull())
        .addColumn('insumo_id', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('units', 'bigint', (c) => c.notNull())
        .addColumn('qty', 'bigint', (c) => c.notNull())
        .addColumn('unit_cost_cents', 'bigint', (c) => c.notNull())
        .addColumn('iva_cents', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('purchase_lines_purchase').on('purchase_lines').column('purchase_id').execute();
      await db.schema
        .createTable('supplier_concepts')
        .addColumn('rfc', 'text', (c) => c.notNull())
        .addColumn('clave_prod_serv', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('presentation_id', 'text', (c) => c.notNull().references('insumo_presentations.id').onDelete('cascade'))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('supplier_concepts_pk', ['rfc', 'clave_prod_serv', 'description'])
        .execute();
      await db.schema
        .createTable('stock_counts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('warehouse_id', 'text', (c) => c.notNull().references('warehouses.id'))
        .addColumn('note', 'text')
        .addColumn('counted_by', 'text', (c) => c.notNull())
        .addColumn('counted_by_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('stock_count_lines')
        .addColumn('count_id', 'text', (c) => c.notNull().references('stock_counts.id').onDelete('cascade'))
        .addColumn('insumo_id', 'text', (c) => c.notNull())
        .addColumn('theoretical', 'bigint', (c) => c.notNull())
        .addColumn('counted', 'bigint', (c) => c.notNull())
        .addColumn('adjustment', 'bigint', (c) => c.notNull())
        // How it was counted: closed bottles per presentation, weighed and estimated open ones.
        .addColumn('detail', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('stock_count_lines_pk', ['count_id', 'insumo_id'])
        .execute();
      // The inventory worker reads the lines changed since its watermark.
      await db.schema.createIndex('order_items_updated_at').on('order_items').column('updated_at').execute();
    },
  };
}
