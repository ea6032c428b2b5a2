import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Modifier groups (docs/decisions/0026-modifiers.md): a group ('Término', 'Preparación', 'Sin')
 * has options with a price delta in centavos and an availability each, and is attached to
 * products or to whole categories. An order item keeps the chosen options as a JSON snapshot
 * in `modifiers` (null for none); its `product_price` already includes their deltas.
 */
export function modifiers() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('modifier_groups')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('min_select', 'integer', (c) => c.notNull().defaultTo(0))
        // null: no upper limit.
        .addColumn('max_select', 'integer')
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('modifier_options')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('group_id', 'text', (c) => c.notNull().references('modifier_groups.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('price_delta', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('available', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('modifier_options_group').on('modifier_options').column('group_id').execute();
      // One row per attachment: a product (product_id) or a whole category (category), never both.
      await db.schema
        .createTable('modifier_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('group_id', 'text', (c) => c.notNull().references('modifier_groups.id').onDelete('cascade'))
        .addColumn('product_id', 'text')
        .addColumn('category', 'text')
        .execute();
      await db.schema.createIndex('modifier_links_group').on('modifier_links').column('group_id').execute();
      await db.schema.alterTable('order_items').addColumn('modifiers', 'text').execute();
    },
  };
}
