import { sql, type Kysely } from 'kysely';
import { cents, flatBreakdown } from '@comanda/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../src/db/connect.ts';
import { KNOWN_MIGRATIONS, NewerDatabaseError } from '../src/db/migrate.ts';
import { createServer } from '../src/server.ts';
import {
  assertInvariants,
  createTestDatabase,
  freePort,
  testDatabaseKinds,
  testServerConfig,
  type TestDatabase,
} from '../src/testing/index.ts';
import { startServerProcess } from './quality/server-process.ts';
import { buildV0001Database, V1 } from './fixtures/v0001-database.ts';

const TABLES = ['users', 'products', 'tables', 'orders', 'order_items', 'payments', 'card_payments', 'config', 'audit_log'] as const;
const KEYS: Record<(typeof TABLES)[number], string> = {
  users: 'id',
  products: 'id',
  tables: 'id',
  orders: 'id',
  order_items: 'id',
  payments: 'id',
  card_payments: 'id',
  config: 'key',
  audit_log: 'id',
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- whole rows of any table, compared column by column
async function snapshot(db: Kysely<any>): Promise<Record<string, Record<string, unknown>[]>> {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const table of TABLES) out[table] = await db.selectFrom(table).selectAll().orderBy(KEYS[table]).execute();
  return out;
}

function configFor(database: TestDatabase) {
  return testServerConfig(database, { BACKUP_EVERY: 'off' });
}

describe.each(testDatabaseKinds())('upgrade from the first landed version on %s', (kind) => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup) await c();
  });

  it("today's migrations keep every row of a 0001 database, and the server serves it", { timeout: 60_000 }, async () => {
    const database = await createTestDatabase(kind);
    cleanup.push(() => database.drop());
    const old = connect(database.url);
    let before: Awaited<ReturnType<typeof snapshot>>;
    try {
      await buildV0001Database(old);
      before = await snapshot(old.db);
    } finally {
      await old.close();
    }
    expect(before.orders).toHaveLength(2);

    const server = await createServer({ config: configFor(database), log: () => undefined });
    try {
      const after = await snapshot(server.ctx.db.db);
      // The config rows added by design, by name, none of them an old row: the check of the PIN key
      // (auth/pin-key.ts, at start) and invoicing's starting point (after the folio the old checks reached).
      const added = ['invoicing', 'pin_key'];
      for (const key of added) expect(before.config!.map((row) => row.key)).not.toContain(key);
      const addedRows = after.config!.filter((row) => added.includes(String(row.key)));
      expect(addedRows.map((row) => row.key)).toEqual(added);
      const paidBefore = before.orders!.filter((row) => row.status === 'pagado').length;
      expect(JSON.parse(String(addedRows[0]!.value))).toEqual({ startAfterFolio: paidBefore });
      after.config = after.config!.filter((row) => !added.includes(String(row.key)));
      for (const table of TABLES) {
        expect(after[table], table).toHaveLength(before[table]!.length);
        // Every column of 0001 keeps its value; new columns are added beside them.
        after[table]!.forEach((row, i) => expect(row, `${table} row ${i}`).toMatchObject(before[table]![i]!));
      }
      expect(after.card_payments![0]).toMatchObject({ approved_amount: null });
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(server.ctx.db.db);
      expect(applied.rows.map((r) => r.name)).toEqual([...KNOWN_MIGRATIONS]);

      const login = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: V1.admin.email, password: V1.admin.password },
      });
      expect(login.statusCode).toBe(200);
      const cookie = String(login.headers['set-cookie']).split(';')[0]!;
      const paid = await server.app.inject({ method: 'GET', url: `/api/orders/${V1.paidOrder}`, headers: { cookie } });
      expect(paid.statusCode).toBe(200);
      expect(paid.json()).toMatchObject({ order: { id: V1.paidOrder, status: 'pagado', total: 20_350 } });
      // Paid before the tax model: its breakdown from what it charged (total − tip) at the 16 % then in force, marked derived.
      const paidRow = after.orders!.find((row) => row.id === V1.paidOrder)!;
      const charged = cents(Number(paidRow.total) - Number(paidRow.tip));
      expect(paid.json().order.taxBreakdown).toEqual(flatBreakdown(charged, 'iva16', true));
      expect(paid.json().order.taxBreakdown).toMatchObject({ derived: true, amount: charged });
      const active = await server.app.inject({ method: 'GET', url: `/api/orders/${V1.activeOrder}`, headers: { cookie } });
      expect(active.json()).toMatchObject({ order: { status: 'activo', subtotal: 4500 } });
      const pub = await server.app.inject({ method: 'GET', url: '/api/config/public' });
      expect(JSON.stringify(pub.json())).toContain('La Cantina de Prueba');
      const health = await server.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.json()).toMatchObject({ ok: true, migrations: { state: 'current', applied: KNOWN_MIGRATIONS.length } });
      await assertInvariants(server.ctx.db);
    } finally {
      await server.close();
    }
  });

  it('a server refuses a database from a newer version, in Spanish, and changes nothing', { timeout: 150_000 }, async () => {
    const database = await createTestDatabase(kind);
    cleanup.push(() => database.drop());
    const first = await createServer({ config: configFor(database), log: () => undefined });
    await first.close();
    const db = connect(database.url);
    try {
      await sql`insert into kysely_migration (name, timestamp) values ('0099-futuro', '2030-01-01T00:00:00.000Z')`.execute(db.db);
    } finally {
      await db.close();
    }
    await expect(createServer({ config: configFor(database), log: () => undefined })).rejects.toThrow(NewerDatabaseError);
    await expect(createServer({ config: configFor(database), log: () => undefined })).rejects.toThrow(
      /versión más nueva de Comanda \(tiene la migración 0099-futuro/,
    );
    // The real entry point prints the message and exits.
    const env = {
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      DEMO_DATA: 'off',
      BACKUP_EVERY: 'off',
      PIN_SECRET: 'test-pin-secret-0123456789',
    };
    const error = await startServerProcess(env, await freePort(), 90_000).then(
      async (p) => {
        await p.stop();
        return null;
      },
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/exited with 1/);
    expect(error?.message).toContain('No se modificó nada');
    const check = connect(database.url);
    try {
      const names = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(check.db);
      expect(names.rows.map((r) => r.name)).toEqual([...KNOWN_MIGRATIONS, '0099-futuro']);
    } finally {
      await check.close();
    }
  });
});
