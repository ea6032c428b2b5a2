import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { reportDataSteps } from '../src/model/reports/rollup-backfill.ts';
import { insertOrderItems, orderItemRow, orderRow, tableRow } from '../src/testing/factories.ts';
import { createTestDatabase, planOf, testDatabaseKinds, type TestDatabase } from '../src/testing/index.ts';

/**
 * Every add asks whether its pending twin carries a live discount or comp, by the line's id
 * (migration 0038): behind a year of removed adjustments that ask must read an index, not the table.
 */
describe.each(testDatabaseKinds())("a line's live adjustments are found by index on %s", (kind) => {
  let database: TestDatabase;
  let db: Db;
  let itemId: string;
  beforeAll(async () => {
    database = await createTestDatabase(kind, { migrated: true });
    db = connect(database.url);
    await migrateToLatest(db, reportDataSteps);
    const now = Date.now();
    const order = orderRow({ id: 't1', number: 1 }, null, { created_at: now });
    await db.db
      .insertInto('tables')
      .values(tableRow({ id: 't1', number: 1, created_at: now }))
      .execute();
    await db.db.insertInto('orders').values(order).execute();
    const product = { id: 'p1', name: 'Cerveza', price: 5000, category: 'Cervezas' };
    const items = await insertOrderItems(
      db.db,
      Array.from({ length: 50 }, () => orderItemRow(order.id, product, { created_at: now })),
    );
    itemId = items[0]!.id;
    const removed = Array.from({ length: 2000 }, (_, i) => ({
      id: `adj-${i}`,
      order_id: order.id,
      item_id: items[i % items.length]!.id,
      kind: 'discount' as const,
      amount: 100,
      reason: 'cortesía',
      authorized_by: 'u',
      authorized_by_name: 'Admin',
      created_by: 'u',
      created_by_name: 'Admin',
      created_at: now,
      removed_at: now,
    }));
    for (let i = 0; i < removed.length; i += 250)
      await db.db
        .insertInto('order_adjustments')
        .values(removed.slice(i, i + 250))
        .execute();
    if (kind === 'postgres') await sql`ANALYZE order_adjustments`.execute(db.db);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  // The reads as the add's paths write them: the TypeScript count (add-item, add-units,
  // adjustments-follow) and the one-statement add's NOT EXISTS (db/functions/quick-add.ts).
  it.each([
    ['count', 'SELECT COUNT(*) FROM order_adjustments WHERE item_id = {id} AND removed_at IS NULL'],
    ['exists', 'SELECT 1 FROM order_adjustments a WHERE a.item_id = {id} AND a.removed_at IS NULL'],
  ])('%s', async (_name, text) => {
    const plan = await planOf(db.db, kind, text.replace('{id}', `'${itemId}'`));
    if (kind === 'sqlite') {
      expect(plan).toMatch(/USING (COVERING )?INDEX order_adjustments_live_item/);
    } else {
      expect(plan).toMatch(/order_adjustments_live_item/);
      expect(plan).not.toMatch(/Seq Scan/);
    }
  });
});
