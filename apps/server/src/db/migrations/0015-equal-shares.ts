import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Equal shares as separate checks (docs/decisions/0022-equal-shares-are-checks.md). A share check
 * is an order with no items that owes `share_amount`: an equal share of the items of the order it
 * was split from, which keeps its items and records in `shared_out` what its share checks owe.
 * What an order owes is subtotal − discount − comp − shared_out + share_amount.
 */
export function equalShares() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .alterTable('orders')
        .addColumn('share_amount', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('orders')
        .addColumn('shared_out', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
