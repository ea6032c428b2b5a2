import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/databases.ts';
import { connect, POOL_IDLE_MS, type Db } from './connect.ts';

/**
 * The server's PostgreSQL connections stay open between a quiet night's bursts (pg's own default
 * closes an idle one after 10 s): a request never pays for a new backend and its cold caches.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the PostgreSQL pool', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    db = connect(database.url);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  const backend = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.db)).rows[0]!.pid;

  it('keeps an idle connection past 10 s: the same backend answers after 11 s of quiet', async () => {
    expect(POOL_IDLE_MS).toBeGreaterThanOrEqual(5 * 60_000);
    const first = await backend();
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect(await backend()).toBe(first);
  }, 20_000);
});
