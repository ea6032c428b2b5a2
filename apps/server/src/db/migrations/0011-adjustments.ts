import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Discounts and comps (cortesías) of an order. Each row keeps what was asked (units, percent or
 * amount) and `amount`, what it takes off the order now (recomputed on every item change).
 * A removed adjustment keeps its row with `removed_at` for the audit trail. `orders.discount`
 * and `orders.comp` cache the sums of the live rows, like `orders.subtotal` caches the items.
 */
export function adjustments() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('order_adjustments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
        .addColumn('item_id', 'text', (c) => c.references('order_items.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('units', 'integer')
        .addColumn('percent_bps', 'integer')
        .addColumn('requested_amount', 'bigint')
        .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('authorized_by', 'text', (c) => c.notNull())
        .addColumn('authorized_by_name', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_by_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('removed_at', 'bigint')
        .addColumn('removed_by', 'text')
        .addColumn('removed_by_name', 'text')
        .execute();
      await db.schema.createIndex('order_adjustments_order').on('order_adjustments').columns(['order_id', 'created_at']).execute();
      await db.schema
        .alterTable('orders')
        .addColumn('discount', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('orders')
        .addColumn('comp', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
