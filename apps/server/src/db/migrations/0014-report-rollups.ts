import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../connect.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Summary tables of the owner reports (docs/decisions/0020-report-rollups.md): one row per
 * business-local hour (`slot`, YYYYMMDDHH) and key — product, waiter, payment method, or loss
 * kind + reason + user — incremented in the transaction that closes, voids or cancels an order.
 * A year of a busy bar is then a few thousand rows to add up instead of millions. The tables are
 * filled here from the rows already there (paid and cancelled orders, voids, adjustments), by
 * the reports model's own backfill.
 */
export function reportRollups(kind: DbKind, fill: (db: AnyDb) => Promise<void>) {
  // SQLite: the key is the table's own order (no rowid), so a slot range is read in one pass.
  const clustered = kind === 'sqlite' ? sql`WITHOUT ROWID` : sql``;
  return {
    async up(db: AnyDb): Promise<void> {
      const money = ['orders', 'items', 'subtotal', 'discount', 'comp', 'tips', 'total'];
      let sales = db.schema.createTable('report_sales').addColumn('slot', 'integer', (c) => c.primaryKey());
      for (const column of money) sales = sales.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
      await sales.modifyEnd(clustered).execute();
      await db.schema
        .createTable('report_products')
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addColumn('product_name', 'text', (c) => c.notNull())
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('units', 'bigint', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('report_products_pk', ['slot', 'product_id', 'product_name', 'category'])
        .modifyEnd(clustered)
        .execute();
      await db.schema
        .createTable('report_waiters')
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('waiter_key', 'text', (c) => c.notNull())
        .addColumn('waiter_name', 'text', (c) => c.notNull())
        .addColumn('orders', 'bigint', (c) => c.notNull())
        .addColumn('total', 'bigint', (c) => c.notNull())
        .addColumn('tips', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('report_waiters_pk', ['slot', 'waiter_key'])
        .modifyEnd(clustered)
        .execute();
      await db.schema
        .createTable('report_methods')
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('payments', 'bigint', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('tips', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('report_methods_pk', ['slot', 'method'])
        .modifyEnd(clustered)
        .execute();
      await db.schema
        .createTable('report_losses')
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('user_key', 'text', (c) => c.notNull())
        .addColumn('user_name', 'text', (c) => c.notNull())
        .addColumn('count', 'bigint', (c) => c.notNull())
        .addColumn('units', 'bigint', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('report_losses_pk', ['slot', 'kind', 'reason', 'user_key'])
        .modifyEnd(clustered)
        .execute();
      // The tax rollup and the breakdowns it reads come later (0029, 0031).
      await fill(db);
    },
  };
}
