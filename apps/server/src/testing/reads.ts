import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/connect.ts';
import { transact } from '../db/transact.ts';

/** Rows tests read back straight from the database, to check what the routes stored. */

type Reader = Pick<Kysely<Database>, 'selectFrom'>;

/** The catalogue's product ids by product name. */
export async function productIdsByName(db: Reader): Promise<Record<string, string>> {
  const rows = await db.selectFrom('products').select(['id', 'name']).execute();
  return Object.fromEntries(rows.map((p) => [p.name, p.id]));
}

/** How many audit entries record `action` on the entity `entityId`. */
export async function auditEntryCount(db: Reader, action: string, entityId: string): Promise<number> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('action', '=', action)
    .where('entity_id', '=', entityId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many item rows an order has, removed items included. */
export async function orderItemRowCount(db: Reader, orderId: string): Promise<number> {
  const row = await db
    .selectFrom('order_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Runs `work` in a transaction that is always rolled back, and returns what it returned: a test
 * reads what a write would leave, and the database is as it was. An error `work` throws is thrown.
 */
export async function readThenRollBack<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const rollback = new Error('rollback');
  let result: T | undefined;
  await transact(db, async (trx) => {
    result = await work(trx);
    throw rollback;
  }).catch((error: unknown) => {
    if (error !== rollback) throw error;
  });
  return result as T;
}
