import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Promotions (happy hour), docs/decisions/0028-promotions.md. A rule has days of the week (JSON
 * array, 0 = domingo), a window in minutes of the business day (end ≤ start crosses midnight), a
 * kind (percent_bps, fixed_price or buy/pay for NxM) and its targets (JSON arrays of product ids
 * and categories). An item priced by one keeps the rule's id and name and the list price it had.
 */
export function promotions() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('promotions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('percent_bps', 'integer')
        .addColumn('fixed_price', 'bigint')
        .addColumn('buy', 'integer')
        .addColumn('pay', 'integer')
        .addColumn('days', 'text', (c) => c.notNull())
        .addColumn('start_minute', 'integer', (c) => c.notNull())
        .addColumn('end_minute', 'integer', (c) => c.notNull())
        .addColumn('product_ids', 'text', (c) => c.notNull())
        .addColumn('categories', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.alterTable('order_items').addColumn('list_price', 'bigint').execute();
      await db.schema.alterTable('order_items').addColumn('promotion_id', 'text').execute();
      await db.schema.alterTable('order_items').addColumn('promotion_name', 'text').execute();
    },
  };
}
