import type { Kysely, Transaction } from 'kysely';
import type { Db } from './connect.ts';
import { runDirectly } from './compiled.ts';
import type { Database } from './schema.ts';
import type { Trx } from './trx.ts';

/** Work to do once a transaction is on disk (after its COMMIT, never after a rollback). */
const afterCommits = new WeakMap<object, (() => void)[]>();

/**
 * Runs `then` once the transaction `trx` is durable, or on the next turn when `trx` is the
 * database itself (its statement committed on its own). A rolled-back transaction drops it.
 */
export function afterCommit(trx: Trx, then: () => void): void {
  const waiting = afterCommits.get(trx);
  if (!waiting) setImmediate(then);
  else if (!waiting.includes(then)) waiting.push(then);
}

/**
 * Runs `work` in one transaction and returns once it is durable. On SQLite a transaction may
 * share its COMMIT with the ones queued behind it (sqlite-group-commit.ts): this waits for that
 * COMMIT, and throws if it failed, so a caller never answers or publishes work that is not on
 * disk. Every write transaction of the server goes through here (an ESLint rule says so).
 */
export async function transact<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  let committed: Promise<void> | undefined;
  const then: (() => void)[] = [];
  const result = await db.db.transaction().execute(async (trx) => {
    afterCommits.set(trx, then);
    const release = db.runHeld ? runDirectly(trx, db.runHeld) : undefined;
    try {
      const out = await work(trx);
      committed = db.settled?.(); // inside the transaction: its own group's COMMIT
      return out;
    } finally {
      release?.();
    }
  });
  await committed;
  for (const run of then) {
    try {
      run();
    } catch {
      // An observer's bug must not fail the write that committed.
    }
  }
  return result;
}

/**
 * One write that needs no transaction around it (a print job's claim, its outcome), durable
 * when it returns, at the least each database asks: on SQLite it joins the open commit group as
 * a transaction of its own, sharing the group's one disk flush, where a bare write would commit
 * the group first and then itself (two flushes, and a group cut short); on PostgreSQL it runs
 * alone in autocommit (one round trip, without BEGIN and COMMIT around it).
 */
export function durably<T>(db: Db, write: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.kind === 'sqlite' ? transact(db, write) : write(db.db);
}
