import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/db/connect.ts';
import { backupSqliteFile, inspectDatabaseFile, isComanda, isSound } from '../src/ops/backup.ts';
import { backupStatus, runScheduledBackup, startBackups, stopBackups } from '../src/ops/backup-schedule.ts';
import { restoreSqlite } from '../src/ops/restore.ts';
import SQLite from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { backupFileName, backupTimeOf, KEEP_DAILY, KEEP_HOURLY, planRotation } from '../src/ops/rotation.ts';
import {
  DEMO_PASSWORD,
  DEMO_USERS,
  REPO_ROOT,
  assertInvariants,
  freePort,
  loginAt,
  startTestServer,
  type TestServer,
} from '../src/testing/index.ts';
import { startServerProcess } from './quality/server-process.ts';

const run = promisify(execFile);

function cli(args: string[], env: Record<string, string>) {
  return run(process.execPath, ['--import', 'tsx', 'apps/server/src/cli.ts', ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env } });
}

type OrderBody = { order: { id: string } };

/**
 * Adds over HTTP while backups run (each backup then checked): BACKUP_ADDS, default 1,000; 300
 * under CI=true, to fit CI's time (`BACKUP_ADDS=1000` runs the full size there).
 */
const TOTAL = Number(process.env.BACKUP_ADDS ?? (process.env.CI === 'true' ? 300 : 1000));

describe('backup while the server takes writes (SQLite)', () => {
  let server: TestServer;
  const out = mkdtempSync(join(tmpdir(), 'comanda-backups-'));
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { BACKUP_EVERY: 'off' } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it(`${TOTAL} adds over HTTP while backing up: every backup is sound and a consistent prefix`, { timeout: 120_000 }, async () => {
    const waiter = await server.login(server.users.waiter.email);
    const { body } = await waiter.get<{ tables: { id: string; number: number }[] }>('/api/tables');
    const tables = body.tables.filter((t) => t.number >= 1).slice(0, 8);
    const product = await server.ctx.db.db.selectFrom('products').select('id').where('available', '=', 1).executeTakeFirstOrThrow();
    const orders: string[] = [];
    for (const table of tables) orders.push((await waiter.post<OrderBody>(`/api/tables/${table.id}/open`)).body.order.id);
    const dbFile = server.ctx.db.url.slice('sqlite:'.length);
    const env = { DATABASE_URL: server.ctx.db.url, DATA_DIR: server.ctx.config.DATA_DIR };

    let acked = 0;
    let next = 0;
    const writers = orders.map(async (orderId) => {
      while (next < TOTAL) {
        next++;
        const res = await waiter.post(`/api/orders/${orderId}/items`, { productId: product.id, quantity: 1, notes: `b${next}` });
        expect(res.status).toBe(200);
        acked++;
      }
    });
    let writing = true;
    const all = Promise.all(writers).finally(() => (writing = false));

    // The command (its own process) and the library (in this process) back up over and over meanwhile.
    const backups: { file: string; ackedBefore: number; ackedAfter: number }[] = [];
    const viaCli = (async () => {
      for (let i = 0; writing && i < 3; i++) {
        const file = join(out, `cli-${i}.db`);
        const ackedBefore = acked;
        const { stdout } = await cli(['backup', '--to', file], env);
        expect(stdout).toContain('Respaldo creado y verificado');
        expect(stdout).toMatch(/órdenes: \d+/);
        backups.push({ file, ackedBefore, ackedAfter: acked });
      }
    })();
    for (let i = 0; writing; i++) {
      const file = join(out, `lib-${i}.db`);
      const ackedBefore = acked;
      await backupSqliteFile(dbFile, file);
      backups.push({ file, ackedBefore, ackedAfter: acked });
      await new Promise((r) => setTimeout(r, 50));
    }
    await all;
    await viaCli;
    expect(acked).toBe(TOTAL);
    const during = backups.filter((b) => b.ackedBefore > 0 && b.ackedAfter < TOTAL);
    expect(during.length, 'backups taken while writes were landing').toBeGreaterThan(2);

    const baseItems = 0;
    for (const b of backups) {
      const report = inspectDatabaseFile(b.file);
      expect(isSound(report), b.file).toBe(true);
      expect(isComanda(report)).toBe(true);
      const items = report.counts.order_items! - baseItems;
      // Everything acknowledged before the backup began is in it; nothing that was never written.
      expect(items).toBeGreaterThanOrEqual(b.ackedBefore);
      expect(items).toBeLessThanOrEqual(b.ackedAfter + orders.length);
      const db = connect(`sqlite:${b.file}`);
      try {
        await assertInvariants(db); // every order's subtotal equals its items, payments match, …
      } finally {
        await db.close();
      }
    }
    console.log(`backup under load: ${backups.length} backups (${during.length} during writes) of ${TOTAL} adds, all sound`);
  });

  it('refuses to overwrite an existing file and says so in Spanish', async () => {
    const file = join(out, 'existe.db');
    writeFileSync(file, 'x');
    await expect(backupSqliteFile(server.ctx.db.url.slice('sqlite:'.length), file)).rejects.toThrow(/Ya existe/);
  });
});

describe('restore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-restore-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'restores a backup, keeps the replaced database aside, the server serves the data; refused while it runs',
    { timeout: 180_000 },
    async () => {
      // A source bar with one order, backed up.
      const source = await startTestServer('sqlite', { env: { BACKUP_EVERY: 'off' } });
      const backupFile = join(dir, 'respaldo.db');
      let orderId = '';
      try {
        const waiter = await source.login(source.users.waiter.email);
        const { body } = await waiter.get<{ tables: { id: string; number: number }[] }>('/api/tables');
        orderId = (await waiter.post<OrderBody>(`/api/tables/${body.tables.find((t) => t.number === 3)!.id}/open`)).body.order.id;
        await backupSqliteFile(source.ctx.db.url.slice('sqlite:'.length), backupFile);
      } finally {
        await source.close();
      }

      // Another data folder whose server has run (demo data, a different history).
      const dataDir = join(dir, 'data');
      mkdirSync(dataDir);
      const env = {
        DATABASE_URL: `sqlite:${join(dataDir, 'pos.db')}`,
        DATA_DIR: dataDir,
        DEMO_DATA: 'auto',
        BACKUP_EVERY: 'off',
        PIN_SECRET: 'test-pin-secret-0123456789',
      };
      const port = await freePort();
      let proc = await startServerProcess(env, port);
      await proc.stop();

      // Bad files are refused and nothing is replaced.
      writeFileSync(join(dir, 'basura.db'), 'esto no es una base de datos');
      await expect(cli(['restore', '--from', join(dir, 'basura.db')], env)).rejects.toMatchObject({
        stderr: expect.stringMatching(/no es una base de datos SQLite legible/),
      });
      const { stdout } = await cli(['restore', '--from', backupFile], env);
      expect(stdout).toContain('Respaldo restaurado');
      const replaced = readdirSync(dataDir).filter((f) => f.startsWith('pos.db.replaced-'));
      expect(replaced).toHaveLength(1);
      expect(isComanda(inspectDatabaseFile(join(dataDir, replaced[0]!)))).toBe(true);
      expect(stdout).toContain(replaced[0]!);

      proc = await startServerProcess(env, port);
      try {
        const waiter = await loginAt(proc.url, DEMO_USERS.find((u) => u.role === 'waiter')!.email, DEMO_PASSWORD);
        const res = await waiter.get<{ order: { id: string; tableNumber: number } }>(`/api/orders/${orderId}`);
        expect(res.status).toBe(200);
        expect(res.body.order.id).toBe(orderId);
        // While it runs, restore refuses and leaves everything as it is.
        await expect(cli(['restore', '--from', backupFile], env)).rejects.toMatchObject({
          stderr: expect.stringMatching(/Hay un servidor de Comanda en marcha/),
        });
        expect(readdirSync(dataDir).filter((f) => f.startsWith('pos.db.replaced-'))).toHaveLength(1);
        expect((await waiter.get(`/api/orders/${orderId}`)).status).toBe(200);
      } finally {
        await proc.stop();
      }
      expect(existsSync(join(dataDir, 'comanda.pid')), 'the server removes its lock file at stop').toBe(false);
    },
  );
});

describe('restore checks the file before replacing anything', () => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-restore-checks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a SQLite file that is not Comanda, and a backup from a newer version; the database stays', async () => {
    const server = await startTestServer('sqlite', { env: { BACKUP_EVERY: 'off' } });
    const good = join(dir, 'bueno.db');
    try {
      await backupSqliteFile(server.ctx.db.url.slice('sqlite:'.length), good);
    } finally {
      await server.close();
    }
    const dbFile = join(dir, 'pos.db');
    copyFileSync(good, dbFile);
    const other = new SQLite(join(dir, 'otra.db'));
    other.exec('create table clientes (id integer primary key)');
    other.close();
    const newer = join(dir, 'nueva.db');
    copyFileSync(good, newer);
    const n = new SQLite(newer);
    n.prepare(`insert into kysely_migration (name, timestamp) values ('0099-futuro', '2030-01-01')`).run();
    n.close();
    const base = { dbFile, dataDir: dir, now: Date.now() };
    expect(() => restoreSqlite({ ...base, from: join(dir, 'otra.db') })).toThrow(/no es una base de datos de Comanda/);
    expect(() => restoreSqlite({ ...base, from: newer })).toThrow(/versión más nueva de Comanda \(0099-futuro\)/);
    expect(() => restoreSqlite({ ...base, from: join(dir, 'no-existe.db') })).toThrow(/No existe el archivo/);
    expect(readdirSync(dir).filter((f) => f.includes('.replaced-') || f.endsWith('.restoring'))).toEqual([]);
    expect(isComanda(inspectDatabaseFile(dbFile))).toBe(true);
  });

  it('the backup command on PostgreSQL points to pg_dump and pg_restore', async () => {
    await expect(
      cli(['backup', '--to', join(dir, 'x.db')], { DATABASE_URL: 'postgres://comanda@127.0.0.1:1/comanda' }),
    ).rejects.toMatchObject({
      stderr: expect.stringMatching(/pg_dump[\s\S]*pg_restore/),
    });
  });
});

describe('rotation', () => {
  it('keeps the newest of each of the last 48 hours and of each of the last 30 days', () => {
    const start = Date.UTC(2026, 0, 1, 0, 0, 0);
    // Every 20 minutes for 45 days.
    const names: string[] = [];
    for (let at = start; at < start + 45 * 86_400_000; at += 20 * 60_000) names.push(backupFileName(at));
    names.push('notas.txt', 'pos.db.replaced-2026');
    const { keep, remove } = planRotation(names);
    const kept = keep.map((n) => backupTimeOf(n)!).sort((a, b) => b - a);
    const newest = start + 45 * 86_400_000 - 20 * 60_000;
    expect(kept[0]).toBe(newest);
    const hours = new Set(kept.map((at) => Math.floor(at / 3_600_000)));
    const days = new Set(kept.map((at) => Math.floor(at / 86_400_000)));
    // The last 48 hours: one each (the newest of the hour, at :40).
    for (let h = 0; h < KEEP_HOURLY; h++) expect(hours.has(Math.floor(newest / 3_600_000) - h)).toBe(true);
    // The last 30 days: the last backup of each (23:40).
    for (let d = 0; d < KEEP_DAILY; d++)
      expect(keep).toContain(backupFileName(Math.floor(newest / 86_400_000 - d) * 86_400_000 + 23 * 3_600_000 + 40 * 60_000));
    expect(days.size).toBe(KEEP_DAILY);
    // 48 hourly (2 of them are also the newest of their day) + 28 more daily.
    expect(keep.length).toBe(KEEP_HOURLY + KEEP_DAILY - 2);
    expect(keep.length + remove.length).toBe(names.length - 2);
    expect(remove).not.toContain('notas.txt');
  });

  it('a scheduled backup writes a named file, rotates the folder and reports its time, size and staleness', async () => {
    let now = Date.UTC(2026, 10, 22, 12, 0, 0);
    const server = await startTestServer('sqlite', { clock: { now: () => now }, env: { BACKUP_EVERY: '1h' } });
    try {
      const status0 = backupStatus(server.ctx);
      expect(status0).toMatchObject({ kind: 'sqlite', enabled: true, everyMs: 3_600_000, last: null, stale: false });
      const dir = status0.dir!;
      mkdirSync(dir, { recursive: true });
      // Old backups of 40 days, every hour (empty files stand in for them).
      for (let at = now - 40 * 86_400_000; at < now; at += 3_600_000) writeFileSync(join(dir, backupFileName(at)), '');
      now += 3 * 3_600_000; // three hours later with no backup: stale
      expect(backupStatus(server.ctx).stale).toBe(true);
      const state = { dir, last: null, lastError: null };
      await runScheduledBackup(server.ctx, state);
      expect(state.lastError).toBeNull();
      const files = readdirSync(dir);
      expect(files).toContain(backupFileName(now));
      // 48 hourly (this one and 47 old ones, over 3 calendar days) + 27 more daily.
      expect(files.sort()).toEqual(planRotation(files).keep.sort());
      expect(files.length).toBe(KEEP_HOURLY + KEEP_DAILY - 3);
      expect(isSound(inspectDatabaseFile(join(dir, backupFileName(now))))).toBe(true);
      // The status reads the folder after a restart of the schedule.
      await stopBackups(server.ctx);
      await startBackups(server.ctx, () => undefined);
      const status = backupStatus(server.ctx);
      expect(status.last?.at).toBe(now);
      expect(status.last?.bytes).toBeGreaterThan(10_000);
      expect(status.stale).toBe(false);
      now += 2 * 3_600_000 + 1;
      expect(backupStatus(server.ctx).stale).toBe(true);
      // A folder that cannot be written (here: a file in its place) is reported, not thrown.
      const blocked = { dir: join(dir, backupFileName(now - 5 * 3_600_000 - 1)), last: null, lastError: null as string | null };
      writeFileSync(blocked.dir, '');
      await runScheduledBackup(server.ctx, blocked);
      expect(blocked.lastError).toMatch(/hay un archivo en lugar de la carpeta \((EEXIST|ENOTDIR)\)/);
    } finally {
      await server.close();
    }
  });
});
