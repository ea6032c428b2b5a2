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
