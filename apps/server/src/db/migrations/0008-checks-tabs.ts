import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Separate checks and bar tabs (docs/decisions/0014-checks-are-orders.md): a check is an order.
 * `parent_order_id` is the order a check was split from; `tab_name` names a check ('Cuenta B')
 * or a bar tab ('Cuenta de Juan'). Both null for every order written before.
 */
export function checksTabs() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema.alterTable('orders').addColumn('parent_order_id', 'text').execute();
      await db.schema.alterTable('orders').addColumn('tab_name', 'text').execute();
      // The open orders of one table (its checks, the bar's tabs) are read by table and status.
      await db.schema.createIndex('orders_table_status').on('orders').columns(['table_id', 'status']).execute();
    },
  };
}
