import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

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
