import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabaseKinds, type TestServer } from '../src/testing/index.ts';
import { IDEMPOTENCY_KEEP_MS, sweep } from '../src/features/maintenance/housekeeping.ts';

describe.each(testDatabaseKinds())('housekeeping on %s', (kind) => {
  let server: TestServer;
  let now = Date.UTC(2026, 10, 20, 23, 0);
  const clock = { now: () => now };
  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('removes idle sessions, expired links and old idempotency keys, and nothing else', async () => {
    const db = server.ctx.db.db;
    const idle = await server.login(server.users.kitchen.email);
    const t0 = now;
    await db
      .insertInto('idempotency_keys')
      .values([
        {
          key: 'old-key-0001',
          scope: 'order-close:x',
          request_hash: 'h',
          status_code: 200,
          response: '{}',
          created_at: t0 - IDEMPOTENCY_KEEP_MS - 1,
        },
        { key: 'new-key-0001', scope: 'order-close:y', request_hash: 'h', status_code: 200, response: '{}', created_at: t0 },
      ])
      .execute();
    await db
      .insertInto('user_tokens')
      .values([
        { token_hash: 'expired-link', user_id: server.users.waiter.id, purpose: 'reset', created_at: t0 - 7_200_000, expires_at: t0 - 1 },
        { token_hash: 'valid-link', user_id: server.users.waiter.id, purpose: 'reset', created_at: t0, expires_at: t0 + 3_600_000 },
      ])
      .execute();
    now += 13 * 60 * 60_000; // past the 12 h idle limit for the kitchen session
    const active = await server.login(server.users.admin.email);
    const removed = await sweep(server.ctx);
    expect(removed).toEqual({ sessions: 1, tokens: 2, keys: 1 });
    expect((await idle.get('/api/auth/me')).status).toBe(401);
    expect((await active.get('/api/auth/me')).status).toBe(200);
    const keys = await db.selectFrom('idempotency_keys').select('key').execute();
    expect(keys.map((k) => k.key)).toEqual(['new-key-0001']);
  });
});
