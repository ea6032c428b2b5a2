import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../connect.ts';
import { transact } from '../transact.ts';
import { addRollupsFunction } from './add-rollups.ts';
import { claimKeyFunction } from './claim-key.ts';
import { lineAnswerFunction } from './line-answer.ts';
import { lineDocumentFunction } from './line-document.ts';
import { mayWorkOrderFunction } from './may-work-order.ts';
import { pinAttemptFunction } from './pin-attempt.ts';
import { plainOrderFunction } from './plain-order.ts';
import { quickAddManyFunction } from './quick-add-many.ts';
import { quickAddFunction } from './quick-add.ts';
import { quickDeleteFunction } from './quick-delete.ts';
import { sessionOkFunction } from './session-ok.ts';
import type { SqlFunction } from './sql-function.ts';
import { stationJobsFunction } from './station-jobs.ts';
import { tableLabelFunction } from './table-label.ts';

/**
 * PostgreSQL's functions, each in its own file (decision 0054): the helpers before the functions
 * that call them. They hold no rule of their own beyond the domain's constants written into them.
 */
export const SQL_FUNCTIONS: readonly SqlFunction[] = [
  sessionOkFunction,
  mayWorkOrderFunction,
  plainOrderFunction,
  claimKeyFunction,
  tableLabelFunction,
  lineDocumentFunction,
  stationJobsFunction,
  lineAnswerFunction,
  pinAttemptFunction,
  addRollupsFunction,
  quickAddFunction,
  quickAddManyFunction,
  quickDeleteFunction,
];

/** Where the migrator records the sha256 of each function's text as it made it. */
export const FUNCTIONS_TABLE = 'comanda_sql_functions';

/**
 * After the migrations, PostgreSQL only: every function whose text is not the one recorded is made
 * again, in one transaction under an advisory lock, so processes starting at once apply it once.
 * Its earlier versions are dropped first, whatever their parameters (CREATE OR REPLACE would keep
 * another signature beside it). Returns the names it made.
 */
export async function applySqlFunctions(db: Db, functions: readonly SqlFunction[] = SQL_FUNCTIONS): Promise<string[]> {
  return transact(db, async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${FUNCTIONS_TABLE}, 0))`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS ${sql.table(FUNCTIONS_TABLE)} (
      name text PRIMARY KEY, sha256 text NOT NULL, applied_at bigint NOT NULL)`.execute(trx);
    const { rows } = await sql<{ name: string; sha256: string }>`SELECT name, sha256 FROM ${sql.table(FUNCTIONS_TABLE)}`.execute(trx);
    const recorded = new Map(rows.map((r) => [r.name, r.sha256]));
    const made: string[] = [];
    for (const f of functions) {
      const hash = createHash('sha256').update(f.text).digest('hex');
      if (recorded.get(f.name) === hash) continue;
      const { rows: versions } = await sql<{ signature: string }>`SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
        WHERE p.proname = ${f.name} AND p.pronamespace = current_schema()::regnamespace`.execute(trx);
      for (const v of versions) await sql.raw(`DROP FUNCTION ${v.signature}`).execute(trx);
      await sql.raw(f.text).execute(trx);
      await sql`INSERT INTO ${sql.table(FUNCTIONS_TABLE)} (name, sha256, applied_at) VALUES (${f.name}, ${hash}, ${Date.now()})
        ON CONFLICT (name) DO UPDATE SET sha256 = excluded.sha256, applied_at = excluded.applied_at`.execute(trx);
      made.push(f.name);
    }
    return made;
  });
}
