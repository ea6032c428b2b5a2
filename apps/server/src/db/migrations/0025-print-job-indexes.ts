import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * Fewer index entries per comanda. A print job's row is written three times (the
 * add's insert, the worker's claim, its "printed"), and each change of its state is a new entry in
 * every index of the table. Two of them no longer serve a read: print_jobs_live (migration 0022)
 * holds the waiting jobs, by printer and in order, for every read by state (STILL_TO_PRINT), and the
 * worker finds its claimed rows by their seq. Dropping (printer_id, state, seq) and (state, seq)
 * takes six index entries off each comanda. The weekly prune of printed jobs, hourly, reads the
 * table without them.
 */
export function printJobIndexes() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema.dropIndex('print_jobs_printer_state').execute();
      await db.schema.dropIndex('print_jobs_state').execute();
    },
  };
}
