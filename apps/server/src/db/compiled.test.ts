import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../testing/databases.ts';
import { connect, type Db } from './connect.ts';
import { migrateToLatest } from './migrate.ts';
import { reportDataSteps } from '../model/reports/rollup-backfill.ts';
import { compiledOnce, firstRow } from './compiled.ts';
import { transact } from './transact.ts';

describe.each(testDatabaseKinds())('statements built once on %s', (kind) => {
  let database: TestDatabase;
  let db: Db;
  const seen: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = connect(database.url);
    await migrateToLatest(db, reportDataSteps);
    db.onQuery = (_ms, sql) => seen.push(sql);
    await db.db
      .insertInto('idempotency_keys')
      .values([
        { key: 'k1', scope: 'POST /a', request_hash: 'h1', status_code: null, response: null, created_at: 1 },
        { key: 'k2', scope: 'POST /a', request_hash: 'h2', status_code: 201, response: '{}', created_at: 2 },
        { key: 'k3', scope: 'POST /b', request_hash: 'h3', status_code: 201, response: '{}', created_at: 3 },
      ])
      .execute();
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('runs the SQL Kysely compiles, with each call its own values, and builds it once', async () => {
    let builds = 0;
    const answered = compiledOnce((d, a: { scope: string; after: number }) => {
      builds++;
      return d
        .selectFrom('idempotency_keys')
        .select(['key', 'request_hash'])
        .where('scope', '=', a.scope)
        .where('created_at', '>', a.after)
        .where('status_code', '=', 201) // a constant of the build stays in every call
        .orderBy('key');
    });
    seen.length = 0;
    expect((await answered(db.db, { scope: 'POST /a', after: 0 })).rows).toEqual([{ key: 'k2', request_hash: 'h2' }]);
    expect((await answered(db.db, { scope: 'POST /b', after: 0 })).rows).toEqual([{ key: 'k3', request_hash: 'h3' }]);
    expect((await answered(db.db, { scope: 'POST /b', after: 3 })).rows).toEqual([]);
    expect(builds).toBe(1);
    const kysely = db.db
      .selectFrom('idempotency_keys')
      .select(['key', 'request_hash'])
      .where('scope', '=', 'POST /b')
      .where('created_at', '>', 3)
      .where('status_code', '=', 201)
      .orderBy('key')
      .compile().sql;
    expect(seen).toEqual([kysely, kysely, kysely]);
  });

  it('writes inside a transaction and answers as executeTakeFirst: a row, or undefined', async () => {
    const answer = compiledOnce((d, a: { key: string; json: string }) =>
      d.updateTable('idempotency_keys').set({ status_code: 200, response: a.json }).where('key', '=', a.key).returning(['key', 'response']),
    );
    const row = await db.db.transaction().execute((trx) => firstRow(answer, trx, { key: 'k1', json: '{"ok":true}' }));
    expect(row).toEqual({ key: 'k1', response: '{"ok":true}' });
    expect(await firstRow(answer, db.db, { key: 'nope', json: '{}' })).toBeUndefined();
    const stored = await db.db.selectFrom('idempotency_keys').select('response').where('key', '=', 'k1').executeTakeFirstOrThrow();
    expect(stored.response).toBe('{"ok":true}');
  });

  it('takes a slot as one value of a list, and refuses a missing value or a list for one slot', async () => {
    const inList = compiledOnce((d, a: { key: string }) =>
      d.selectFrom('idempotency_keys').select('key').where('key', 'in', [a.key, 'k3']).orderBy('key'),
    );
    expect((await inList(db.db, { key: 'k2' })).rows).toEqual([{ key: 'k2' }, { key: 'k3' }]);
    const byKey = compiledOnce((d, a: { key: string }) => d.selectFrom('idempotency_keys').select('key').where('key', '=', a.key));
    await expect(byKey(db.db, {} as { key: string })).rejects.toThrow(/no value for "key"/);
    await expect(byKey(db.db, { key: ['k1', 'k2'] as unknown as string })).rejects.toThrow(/a list of values for "key"/);
  });

  it('inside transact, runs on the held connection: same rows, errors undo only that member, nothing after the end', async () => {
    const stamp = compiledOnce((d, a: { key: string; at: number }) =>
      d.updateTable('idempotency_keys').set({ created_at: a.at }).where('key', '=', a.key).returning(['key', 'created_at']),
    );
    const claim = compiledOnce((d, a: { key: string }) =>
      d
        .insertInto('idempotency_keys')
        .values({ key: a.key, scope: 'POST /c', request_hash: 'h', status_code: null, response: null, created_at: 9 }),
    );
    seen.length = 0;
    // SQLite: the driver runs it at once (runHeld), not Kysely's executor.
    const runHeld = db.runHeld;
    let held = 0;
    if (runHeld) db.runHeld = (sql, parameters) => (held++, runHeld(sql, parameters));
    let kept: Parameters<typeof stamp>[0] | undefined;
    const row = await transact(db, async (trx) => {
      kept = trx;
      return firstRow(stamp, trx, { key: 'k3', at: 30 });
    });
    expect(row).toEqual({ key: 'k3', created_at: 30 });
    expect(held).toBe(kind === 'sqlite' ? 1 : 0);
    // Told to the metrics either way (SQLite's through the driver, PostgreSQL's through Kysely's log).
    expect(seen.some((sql) => sql.startsWith('update "idempotency_keys"'))).toBe(true);
    // A refused statement rejects its promise and rolls back its own transaction only.
    await expect(
      transact(db, async (trx) => {
        await firstRow(stamp, trx, { key: 'k3', at: 31 });
        await claim(trx, { key: 'k1' }); // k1 exists: a primary key violation
      }),
    ).rejects.toThrow(/UNIQUE|duplicate key/);
    const after = await db.db.selectFrom('idempotency_keys').select('created_at').where('key', '=', 'k3').executeTakeFirstOrThrow();
    expect(Number(after.created_at)).toBe(30);
    // The transaction has ended: its handle holds nothing, and Kysely refuses it.
    await expect(firstRow(stamp, kept!, { key: 'k3', at: 32 })).rejects.toThrow(/committed|rolled back/i);
    expect(held).toBe(kind === 'sqlite' ? 3 : 0);
    db.runHeld = runHeld;
  });

  it.runIf(kind === 'sqlite')(
    'outside a transaction, runs at once while the connection is free, and waits its turn while a transaction holds it',
    async () => {
      const read = compiledOnce((d, a: { key: string }) => d.selectFrom('idempotency_keys').select('created_at').where('key', '=', a.key));
      // Free: answered within two turns of the microtask queue (Kysely's executor takes many more).
      let answered = false;
      const first = read(db.db, { key: 'k2' }).then(() => (answered = true));
      await Promise.resolve();
      await Promise.resolve();
      expect(answered).toBe(true);
      await first;
      // Held: the read waits until the transaction has ended, and sees its write.
      const order: string[] = [];
      let release!: () => void;
      const holding = new Promise<void>((resolve) => (release = resolve));
      const writer = transact(db, async (trx) => {
        await trx.updateTable('idempotency_keys').set({ created_at: 41 }).where('key', '=', 'k2').execute();
        order.push('written');
        await holding;
        order.push('released');
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const reader = read(db.db, { key: 'k2' }).then((r) => (order.push('read'), r.rows[0]?.created_at));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(order).toEqual(['written']);
      release();
      await writer;
      expect(Number(await reader)).toBe(41);
      expect(order).toEqual(['written', 'released', 'read']);
    },
  );
});
