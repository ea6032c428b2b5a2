import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabaseKinds, type TestServer } from '../src/testing/index.ts';
import { AnswerStore } from '../src/http/idempotent-answers.ts';
import { storeRawResponses } from '../src/http/idempotency.ts';
import { sql } from 'kysely';

/**
 * The answers of keyed writes, written after they are sent (idempotent-answers.ts): several that
 * arrive in one turn are written together, on PostgreSQL in one statement, and each key gets its
 * own answer, byte for byte, with nothing written to a key that was never claimed.
 */
describe.each(testDatabaseKinds())('kept answers on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('writes every answer kept in one turn to its own key, in one statement on PostgreSQL', async () => {
    const db = server.ctx.db;
    const keys = Array.from({ length: 5 }, () => randomUUID());
    await db.db
      .insertInto('idempotency_keys')
      .values(keys.map((key) => ({ key, scope: 'test', request_hash: 'h', status_code: null, response: null, created_at: 1 })))
      .execute();
    const warnings: unknown[] = [];
    const store = new AnswerStore(db, (err) => warnings.push(err));
    const seen: string[] = [];
    const before = db.onQuery;
    db.onQuery = (ms, sql) => {
      seen.push(sql);
      before?.(ms, sql);
    };
    const never = randomUUID();
    try {
      keys.forEach((key, i) => store.keep(key, { statusCode: 200 + i, json: `{"n":${i},"text":"añadido ${key}"}` }));
      store.keep(never, { statusCode: 200, json: '{}' });
      expect(store.answerOf(keys[2]!)?.statusCode).toBe(202); // kept until written
      await store.flush();
    } finally {
      db.onQuery = before;
    }
    expect(warnings).toEqual([]);
    const rows = await db.db
      .selectFrom('idempotency_keys')
      .select(['key', 'status_code', 'response'])
      .where('key', 'in', [...keys, never])
      .execute();
    const byKey = new Map(rows.map((r) => [r.key, r]));
    keys.forEach((key, i) => {
      expect(byKey.get(key)).toEqual({ key, status_code: 200 + i, response: `{"n":${i},"text":"añadido ${key}"}` });
    });
    expect(byKey.has(never)).toBe(false);
    const writes = seen.filter((s) => /idempotency_keys/i.test(s));
    if (kind === 'postgres') {
      expect(writes).toHaveLength(1);
      expect(seen.some((s) => /^(begin|commit)/i.test(s))).toBe(false);
    } else expect(writes).toHaveLength(6);
    expect(store.answerOf(keys[2]!)).toBeUndefined();
  });

  it.runIf(kind === 'postgres')('commits the answers without waiting for the disk, and only their own transaction', async () => {
    const db = server.ctx.db.db;
    const key = randomUUID();
    await db
      .insertInto('idempotency_keys')
      .values({ key, scope: 'test', request_hash: 'h', status_code: null, response: null, created_at: 1 })
      .execute();
    const setting = async (trx: typeof db) =>
      (await sql<{ v: string }>`SELECT current_setting('synchronous_commit') AS v`.execute(trx)).rows[0]!.v;
    const inside = await db.transaction().execute(async (trx) => {
      await storeRawResponses(trx, new Map([[key, { statusCode: 201, json: '{"ok":true}' }]]));
      return setting(trx);
    });
    expect(inside).toBe('off');
    // The pool's connections keep the server's durable setting for every other write.
    const others = await Promise.all(Array.from({ length: 4 }, () => setting(db)));
    expect(new Set(others)).toEqual(new Set(['on']));
    const row = await db
      .selectFrom('idempotency_keys')
      .select(['status_code', 'response'])
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status_code: 201, response: '{"ok":true}' });
  });
});
