import type { Transaction } from 'kysely';
import type { Db } from './connect.ts';
import type { Database } from './schema.ts';

/**
 * Runs `work` in one transaction and returns once it is durable. On SQLite a transaction may
 * share its COMMIT with the ones queued behind it (sqlite-group-commit.ts): this waits for that
 * COMMIT, and throws if it failed, so a caller never answers or publishes work that is not on
 * disk. Every write transaction of the server goes through here (an ESLint rule says so).
 */
export async function transact<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  let committed: Promise<void> | undefined;
  const result = await db.db.transaction().execute(async (trx) => {
    const out = await work(trx);
    committed = db.settled?.(); // inside the transaction: its own group's COMMIT
    return out;
  });
  await committed;
  return result;
}
