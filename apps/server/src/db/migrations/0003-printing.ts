import type { Kysely } from 'kysely';
import type { DbKind } from '../connect.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Network thermal printers and their print jobs. A job is written in the same transaction as the
 * order change that causes it, and `seq` (assigned by the database) orders a printer's jobs.
 */
export function printing(kind: DbKind) {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('printers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('port', 'integer', (c) => c.notNull().defaultTo(9100))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull().defaultTo(80))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('emulated', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('listo'))
        .addColumn('last_error', 'text')
        .addColumn('last_error_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('print_jobs')
        .addColumn('seq', kind === 'postgres' ? 'bigserial' : 'integer', (c) =>
          kind === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('printer_id', 'text', (c) => c.notNull().references('printers.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint')
        .addColumn('claim', 'text')
        .addColumn('maybe_printed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('printed_at', 'bigint')
        .execute();
      await db.schema.createIndex('print_jobs_printer_state').on('print_jobs').columns(['printer_id', 'state', 'seq']).execute();
      await db.schema.createIndex('print_jobs_order').on('print_jobs').columns(['order_id', 'kind']).execute();
    },
  };
}
