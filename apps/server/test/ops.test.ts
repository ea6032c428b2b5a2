import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { KNOWN_MIGRATIONS } from '../src/db/migrate.ts';
import { createServer } from '../src/server.ts';
import { connectLive, createTestDatabase, startTestServer, testDatabaseKinds, type TestServer } from '../src/testing/index.ts';

describe.each(testDatabaseKinds())('health and metrics on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { env: { BACKUP_EVERY: '1h' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('/api/health keeps { ok, database } and adds database reachability, migration state and the last backup', async () => {
    const res = await server.anonymous().get<Record<string, unknown>>('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      database: kind,
      databaseReachable: true,
      migrations: { state: 'current', applied: KNOWN_MIGRATIONS.length, known: KNOWN_MIGRATIONS.length },
      backup: { enabled: kind === 'sqlite', lastAt: null, stale: false },
    });
    expect(typeof res.body.databaseMs).toBe('number');
    expect(typeof res.body.uptimeSeconds).toBe('number');
  });

  it('/api/backups tells an administrator how backups are made', async () => {
    const admin = await server.login(server.users.admin.email);
    const res = await admin.get<Record<string, unknown>>('/api/backups');
    expect(res.status).toBe(200);
    if (kind === 'sqlite') expect(res.body).toMatchObject({ kind: 'sqlite', enabled: true, everyMs: 3_600_000, last: null, stale: false });
    else expect(res.body).toMatchObject({ kind: 'postgres', enabled: false });
  });

  it('/metrics: latency per route pattern, live sockets, database timings, in Prometheus text format', async () => {
    const waiter = await server.login(server.users.waiter.email);
    const { body } = await waiter.get<{ tables: { id: string; number: number }[] }>('/api/tables');
    const table = body.tables.find((t) => t.number === 5)!;
    const opened = await waiter.post<{ order: { id: string } }>(`/api/tables/${table.id}/open`);
    await waiter.get(`/api/orders/${opened.body.order.id}`);
    const live = await connectLive(server.url, waiter.cookie);
    try {
      const res = await fetch(`${server.url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      expect(text).toMatch(
        /comanda_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/tables",status="200"\} \d+/,
      );
      expect(text).toContain('route="/api/orders/:orderId"');
      expect(text).not.toContain(opened.body.order.id); // patterns, never raw URLs
      expect(text).toMatch(/^comanda_live_sockets 1$/m);
      const selects = /comanda_db_query_duration_seconds_count\{kind="select"\} (\d+)/.exec(text);
      expect(Number(selects?.[1])).toBeGreaterThan(0);
      expect(text).toContain('comanda_backup_stale 0');
      expect(text).toContain('comanda_process_resident_memory_bytes');
    } finally {
      live.ws.close();
    }
  });
});

describe('health when the database is gone', () => {
  it('answers 503 with ok: false and databaseReachable: false', async () => {
    const database = await createTestDatabase('sqlite');
    const config = loadConfig({
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      LOG_LEVEL: 'silent',
      DEMO_DATA: 'off',
      BACKUP_EVERY: 'off',
    });
    const server = await createServer({ config, log: () => undefined });
    try {
      await server.ctx.db.db.destroy();
      const res = await server.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ ok: false, database: 'sqlite', databaseReachable: false, migrations: { state: 'unknown' } });
    } finally {
      await server.close().catch(() => undefined);
      await database.drop();
    }
  });
});
