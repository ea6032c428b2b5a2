import { statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../testing/databases.ts';
import { connect, type Db } from './connect.ts';
import { migrateToLatest } from './migrate.ts';
import { reportDataSteps } from '../model/reports/rollup-backfill.ts';
import { transact } from './transact.ts';

const waitFor = async (done: () => boolean, ms: number) => {
  const until = Date.now() + ms;
  while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  return done();
};

describe('SQLite checkpoints on a thread of their own', () => {
  let database: TestDatabase | undefined;
  let db: Db | undefined;
  afterEach(async () => {
    await db?.close();
    await database?.drop();
  });

  it("copies the server's committed pages into the database file while the server's connection never checkpoints", async () => {
    database = await createTestDatabase('sqlite');
    db = connect(database.url);
    await migrateToLatest(db, reportDataSteps);
    const file = database.url.slice('sqlite:'.length);
    // The server's own automatic checkpoint off: whatever reaches the file, the thread copied.
    await sql`PRAGMA wal_autocheckpoint = 0`.execute(db.db);
    const before = db.checkpointer!.pages;
    const sizeBefore = statSync(file).size;
    for (let i = 0; i < 200; i++) {
      await transact(db, (trx) =>
        trx
          .insertInto('idempotency_keys')
          .values({ key: `k${i}`, scope: 's', request_hash: 'h'.repeat(64), status_code: 200, response: 'x'.repeat(2000), created_at: i })
          .execute(),
      );
    }
    // Only a checkpoint writes pages into the database file itself.
    expect(await waitFor(() => db!.checkpointer!.pages > before && statSync(file).size > sizeBefore + 200 * 2000, 5000)).toBe(true);
  });

  it('stops with the connection, and what was committed is there when the file is opened again', async () => {
    database = await createTestDatabase('sqlite');
    db = connect(database.url);
    await migrateToLatest(db, reportDataSteps);
    for (let i = 0; i < 50; i++) {
      await transact(db, (trx) =>
        trx
          .insertInto('idempotency_keys')
          .values({ key: `k${i}`, scope: 's', request_hash: 'h', status_code: 200, response: '{}', created_at: i })
          .execute(),
      );
    }
    await db.close();
    db = connect(database.url);
    const rows = await db.db
      .selectFrom('idempotency_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(50);
  });
});
