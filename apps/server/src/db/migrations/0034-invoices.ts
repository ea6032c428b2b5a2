import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * The CFDIs stamped from the receipts: a customer's invoice of a ticket (the cashier's "Facturar"
 * or the customer's own at the PAC's page) and the factura global of a period. A customer's
 * request is keyed by its Idempotency-Key, and a ticket holds one live invoice at most (partial
 * unique index); a global is claimed by its period's key (unique), so two processes or a restart
 * never stamp a period twice. Each row is worked under a lease, as the receipts' outbox is.
 */
export function invoices() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('invoices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('origin', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.references('orders.id'))
        .addColumn('idempotency_key', 'text', (c) => c.unique())
        .addColumn('period_key', 'text', (c) => c.unique())
        .addColumn('periodicity', 'text')
        .addColumn('months', 'text')
        .addColumn('year', 'integer')
        .addColumn('period_from', 'bigint')
        .addColumn('period_to', 'bigint')
        .addColumn('receipt_count', 'integer')
        .addColumn('rfc', 'text', (c) => c.notNull())
        .addColumn('legal_name', 'text', (c) => c.notNull())
        .addColumn('zip', 'text')
        .addColumn('tax_system', 'text')
        .addColumn('cfdi_use', 'text')
        .addColumn('email', 'text')
        .addColumn('payment_form', 'text')
        .addColumn('pac', 'text')
        .addColumn('pac_invoice_id', 'text')
        .addColumn('uuid', 'text')
        .addColumn('total', 'bigint')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint')
        .addColumn('claim', 'text')
        .addColumn('last_error', 'text')
        .addColumn('cancel_motive', 'text')
        .addColumn('cancel_substitution', 'text')
        .addColumn('cancellation_status', 'text')
        .addColumn('emailed_at', 'bigint')
        .addColumn('email_error', 'text')
        .addColumn('created_by', 'text')
        .addColumn('created_by_name', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('stamped_at', 'bigint')
        .addColumn('cancelled_at', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // One live customer invoice per ticket: a second cashier's "Facturar" is refused, not stamped.
      await sql`CREATE UNIQUE INDEX invoices_live_per_order ON invoices (order_id)
        WHERE kind = 'cliente' AND state IN ('solicitando', 'timbrada', 'cancelacion_pendiente')`.execute(db);
      await sql`CREATE INDEX invoices_recent ON invoices (created_at)`.execute(db);
      await sql`CREATE INDEX invoices_due ON invoices (next_attempt_at) WHERE state = 'solicitando'`.execute(db);
      // The receipts a factura global may still take.
      await sql`CREATE INDEX invoice_receipts_open ON invoice_receipts (folio) WHERE state IN ('emitido', 'pendiente')`.execute(db);
    },
  };
}
