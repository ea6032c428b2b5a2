import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/connect.ts';

/** The SQL text of every statement the server sent while `write` ran, in order (the metrics' hook kept working). */
export async function statementsDuring(db: Pick<Db, 'onQuery'>, write: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const before = db.onQuery;
  db.onQuery = (ms, sql) => {
    seen.push(sql);
    before?.(ms, sql);
  };
  try {
    await write();
  } finally {
    db.onQuery = before;
  }
  return seen;
}

/**
 * The statements of the run (of `runs`, one after another) that ran fewest. Work the server does
 * beside a request (the print worker's poll, a commit group another write opened, an earlier
 * answer written a moment after it was sent) may fall inside one window on a busy machine; it only
 * ever adds, so the fewest are the request's own.
 */
export async function fewestStatements(runs: number, run: (attempt: number) => Promise<string[]>): Promise<string[]> {
  let fewest = await run(0);
  for (let attempt = 1; attempt < runs; attempt++) {
    const seen = await run(attempt);
    if (seen.length < fewest.length) fewest = seen;
  }
  return fewest;
}

/** The plan of one literal statement as text: SQLite's EXPLAIN QUERY PLAN details joined by " | ", PostgreSQL's EXPLAIN lines by newlines. */
export async function planOf(db: Kysely<Database>, kind: 'sqlite' | 'postgres', statement: string): Promise<string> {
  if (kind === 'sqlite')
    return (await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement}`).execute(db)).rows.map((r) => r.detail).join(' | ');
  return (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement}`).execute(db)).rows.map((r) => r['QUERY PLAN']).join('\n');
}
