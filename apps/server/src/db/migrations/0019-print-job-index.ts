import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * The print worker's alert check looks for jobs still waiting by state across every printer. Without
 * an index on the state that read scanned every job ever printed: on a long night, thousands of
 * rows read at each delivery. Done jobs keep their rows (the history of what was printed).
 */
export function printJobIndex() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema.createIndex('print_jobs_state').on('print_jobs').columns(['state', 'seq']).execute();
    },
  };
}
