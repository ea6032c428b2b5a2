import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../connect.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Mixed payments and folios (docs/decisions/0015-partial-payments-and-folios.md):
 * - `payments` loses UNIQUE(order_id): an order may be paid by several rows (cash, card,
 *   transfer), each with its own amount and tip; it gains `reference` (a transfer's reference).
 *   SQLite cannot drop a constraint, so the table is rebuilt (create, copy, drop, rename) with
 *   foreign keys off for the swap (drawer_payments references it by name).
 * - `card_payments.part_amount`: the part of the balance a terminal charge pays (null: the rest).
 * - `orders.folio`: the consecutive sale number of a paid order, unique; `counters` holds the
 *   last folio given, incremented inside the closing transaction (a rolled-back close gives it
 *   back). Paid orders get their folios here, in the order they were paid.
 */
export function paymentsFolios(kind: DbKind) {
  return {
    async up(db: AnyDb): Promise<void> {
      if (kind === 'sqlite') {
        await sql`PRAGMA foreign_keys = OFF`.execute(db);
        await sql`BEGIN`.execute(db);
        try {
          await db.schema
            .createTable('payments_new')
            .addColumn('id', 'text', (c) => c.primaryKey())
            .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
            .addColumn('method', 'text', (c) => c.notNull())
            .addColumn('amount', 'bigint', (c) => c.notNull())
            .addColumn('received_amount', 'bigint')
            .addColumn('change_amount', 'bigint')
            .addColumn('tip_amount', 'bigint', (c) => c.notNull().defaultTo(0))
            .addColumn('tip_bps', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('cashier_id', 'text')
            .addColumn('cashier_name', 'text')
            .addColumn('provider_payment_id', 'text')
            .addColumn('created_at', 'bigint', (c) => c.notNull())
            .addColumn('reference', 'text')
            .execute();
          await sql`INSERT INTO payments_new (id, order_id, method, amount, received_amount, change_amount, tip_amount, tip_bps,
              cashier_id, cashier_name, provider_payment_id, created_at)
            SELECT id, order_id, method, amount, received_amount, change_amount, tip_amount, tip_bps,
              cashier_id, cashier_name, provider_payment_id, created_at FROM payments`.execute(db);
          await sql`DROP TABLE payments`.execute(db);
          await sql`ALTER TABLE payments_new RENAME TO payments`.execute(db);
          await db.schema.createIndex('payments_order').on('payments').column('order_id').execute();
          await addFolios(db);
          const broken = await sql`PRAGMA foreign_key_check`.execute(db);
          if (broken.rows.length) throw new Error('foreign keys broken by the payments rebuild');
          await sql`COMMIT`.execute(db);
        } catch (error) {
          await sql`ROLLBACK`.execute(db);
          throw error;
        } finally {
          await sql`PRAGMA foreign_keys = ON`.execute(db);
        }
        return;
      }
      await sql`ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_order_id_key`.execute(db);
      await db.schema.alterTable('payments').addColumn('reference', 'text').execute();
      await db.schema.createIndex('payments_order').on('payments').column('order_id').execute();
      await addFolios(db);
    },
  };
}

async function addFolios(db: AnyDb): Promise<void> {
  await db.schema.alterTable('card_payments').addColumn('part_amount', 'bigint').execute();
  await db.schema.alterTable('orders').addColumn('folio', 'bigint').execute();
  // A unique index, not a column constraint: SQLite cannot add a UNIQUE column; NULLs never collide.
  await db.schema.createIndex('orders_folio').on('orders').column('folio').unique().execute();
  await db.schema
    .createTable('counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
  await sql`UPDATE orders SET folio = ranked.n
    FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY COALESCE(completed_at, updated_at), id) AS n
          FROM orders WHERE status = 'pagado') AS ranked
    WHERE orders.id = ranked.id`.execute(db);
  await sql`INSERT INTO counters (name, value) SELECT 'folio', COUNT(*) FROM orders WHERE status = 'pagado'`.execute(db);
}
