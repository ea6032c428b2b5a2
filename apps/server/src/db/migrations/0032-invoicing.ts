import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Invoicing (CFDI 4.0 through a PAC): one row per paid check, keyed by the order and its folio, the
 * outbox of its PAC receipt. The queue worker finds the paid checks that have none (folio above the
 * last one queued), queues them, and sends each with a claim (lease) and back-off until the PAC
 * answers; the PAC's receipt id, self-invoice key and address are kept here. Checks paid before
 * this version get no receipt: the folio they reached is recorded as the starting point.
 */
export function invoicing() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('invoice_receipts')
        .addColumn('order_id', 'text', (c) => c.primaryKey().references('orders.id'))
        .addColumn('folio', 'bigint', (c) => c.notNull().unique())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('total', 'bigint', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint')
        .addColumn('claim', 'text')
        .addColumn('last_error', 'text')
        .addColumn('pac', 'text')
        .addColumn('pac_receipt_id', 'text')
        .addColumn('receipt_key', 'text')
        .addColumn('self_invoice_url', 'text')
        .addColumn('expires_at', 'bigint')
        .addColumn('invoice_id', 'text')
        .addColumn('invoice_uuid', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('issued_at', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // The queue: only the receipts still to send, in folio order.
      await sql`CREATE INDEX invoice_receipts_queue ON invoice_receipts (next_attempt_at, folio) WHERE state = 'pendiente'`.execute(db);
      const counter = await db.selectFrom('counters').select('value').where('name', '=', 'folio').executeTakeFirst();
      const start = Number((counter as { value?: number | string } | undefined)?.value ?? 0);
      await db
        .insertInto('config')
        .values({ key: 'invoicing', value: JSON.stringify({ startAfterFolio: start }), updated_at: Date.now() })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    },
  };
}
