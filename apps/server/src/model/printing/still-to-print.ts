import { sql } from 'kysely';

/**
 * A job still to print (pending, or claimed and printing), written as the print_jobs_live index's
 * own condition (migration 0022): SQLite and PostgreSQL use a partial index only for a query that
 * states its condition, literally (a bound parameter would not do). With a printer's id the index
 * gives its waiting jobs in seq order (the print worker's next jobs); across printers it holds the
 * few jobs waiting, not the week of printed ones, for the alerts and the printers' counts. Since
 * migration 0025 it is the only index on the job's state: every read by state states this.
 */
export const STILL_TO_PRINT = sql<boolean>`${sql.ref('print_jobs.state')} in ('pending', 'printing')`;
