import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { reportDataSteps } from '../src/model/reports/rollup-backfill.ts';
import { statusMovesOfSales } from '../src/features/inventory/variance-preparer.query.ts';
import { newId } from '../src/http/ids.ts';
import { createTestDatabase, planOf, testDatabaseKinds, type TestDatabase } from '../src/testing/index.ts';

/**
 * The audit log is indexed by entity only for the lines' status moves (migration 0039), the one
 * read by entity there is: behind a night of the orders' own entries, that read finds them by index.
 */
describe.each(testDatabaseKinds())("the lines' status moves are found by index on %s", (kind) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(kind, { migrated: true });
    db = connect(database.url);
    await migrateToLatest(db, reportDataSteps);
    const now = Date.now();
    const entries = Array.from({ length: 3000 }, (_, i) => {
      const move = i % 10 === 0;
      return {
        id: newId(),
        at: now + i,
        actor_id: null,
        actor_name: null,
        authorized_by: null,
        action: move ? 'item.status_changed' : 'order.item-added',
        entity: move ? 'order_item' : 'order',
        entity_id: move ? newId() : `order-${i % 200}`,
        data: move ? '{"to":"listo"}' : '{}',
      };
    });
    for (let i = 0; i < entries.length; i += 250)
      await db.db
        .insertInto('audit_log')
        .values(entries.slice(i, i + 250))
        .execute();
    if (kind === 'postgres') await sql`ANALYZE audit_log`.execute(db.db);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it("the preparers' variance reads audit_log_item, never the whole log", async () => {
    const compiled = statusMovesOfSales(db.db, 0, Date.now()).compile();
    const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
    const values = compiled.parameters.map(literal);
    const text =
      kind === 'sqlite'
        ? compiled.sql.replace(/\?/g, () => values.shift()!)
        : compiled.sql.replace(/\$(\d+)/g, (_, n: string) => literal(compiled.parameters[Number(n) - 1]));
    const plan = await planOf(db.db, kind, text);
    if (kind === 'sqlite') {
      expect(plan).toMatch(/audit_log USING INDEX audit_log_item/);
      expect(plan).not.toMatch(/SCAN audit_log\b/);
    } else {
      expect(plan).toMatch(/audit_log_item/);
      expect(plan).not.toMatch(/Seq Scan on audit_log/);
    }
  });
});
