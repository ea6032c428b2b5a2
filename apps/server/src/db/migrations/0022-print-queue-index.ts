import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * A printer's queue, read in order. The print worker reads a printer's next jobs still
 * to print, oldest first, ten at a time. On (printer_id, state, seq) a read of two states cannot
 * come in seq order: PostgreSQL fetched every waiting job of the printer and sorted them at each
 * delivery, so a backlog (a printer off, a rush ahead of the printers) made every delivery slower
 * than the last — 186 rows per read in a benchmark minute. This index holds only the waiting jobs,
 * in order: the read stops after ten. The worker states the same condition literally
 * (STILL_TO_PRINT, features/printing/worker.ts), as a partial index is used only when the query's
 * condition is its own.
 */
export function printQueueIndex() {
  return {
    async up(db: AnyDb): Promise<void> {
      await sql`CREATE INDEX print_jobs_live ON print_jobs (printer_id, seq) WHERE state IN ('pending', 'printing')`.execute(db);
    },
  };
}
