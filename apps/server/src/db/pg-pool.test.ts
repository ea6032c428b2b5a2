import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/databases.ts';
import pg from 'pg';
import { freePort } from '../testing/index.ts';
import { connect, POOL_IDLE_MS, undoneByDatabase, type Db } from './connect.ts';

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

  it('tells a statement PostgreSQL refused and undid (an ERROR) from one whose fate is unknown (a lost connection, a FATAL)', async () => {
    const failure = (work: Promise<unknown>) =>
      work.then(
        () => new Error('no error'),
        (error: unknown) => error,
      );
    // Refused: division by zero, a unique violation inside the statement; the connection lives on.
    expect(undoneByDatabase(await failure(sql`select 1 / 0`.execute(db.db)))).toBe(true);
    expect(await backend()).toBeGreaterThan(0);
    // The connection itself ended by the server (FATAL 57P01): a statement in flight may have committed.
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    other.on('error', () => undefined);
    const pid = (await other.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const waiting = failure(other.query('select pg_sleep(5)'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await sql`select pg_terminate_backend(${pid})`.execute(db.db);
    expect(undoneByDatabase(await waiting)).toBe(false);
    await other.end().catch(() => undefined);
    // Nobody listening: refused before any statement.
    const port = await freePort();
    const nobody = new pg.Client({ host: '127.0.0.1', port, user: 'x', database: 'x', connectionTimeoutMillis: 2000 });
    expect(undoneByDatabase(await failure(nobody.connect()))).toBe(false);
  });
});
