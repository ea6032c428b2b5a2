import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/http/messages.ts';
import { storageFailure } from '../src/db/unavailable.ts';
import { createServer, type RunningServer } from '../src/server.ts';
import { seedDemo } from '../src/seed/seed.ts';
import {
  REPO_ROOT,
  freePort,
  listenOnLoopback,
  loginAt,
  startTestServer,
  testServerConfig,
  type ApiClient,
  type TestServer,
} from '../src/testing/index.ts';

/**
 * A disk that refuses the data (full, read-only): a request answers 503 with a Spanish text
 * instead of 500, /api/health says "degraded" with the reason and when, and a start on such a
 * folder stops with a Spanish explanation and no stack trace.
 *
 * The full disk is real: SQLite's max_page_count held at the database's size (SQLITE_FULL, as on
 * a full disk), and, where the test may mount (root, as in CI's container), a tiny tmpfs filled to
 * the last byte and a tmpfs mounted read-only. Without mount rights those cases are skipped.
 */

interface Health {
  ok: boolean;
  status: string;
  database: string;
  databaseReachable: boolean;
  lastWriteFailure: { reason: string; code: string; at: number } | null;
}

type Refusal = { error: { code: string; message: string } };

/** A product with a long description: each one takes a good part of a page. */
const product = (n: number) => ({
  name: `Platillo de prueba ${n}`,
  description: 'Descripción larga. '.repeat(25),
  price: 10_000 + n,
  category: 'Comida',
});

function tryMount(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-mount-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const canMount = tryMount();

/** A fresh tmpfs of `size` (e.g. "1m"), read-only when asked; returns its folder and how to remove it. */
function tmpfs(size: string, readOnly = false): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}${readOnly ? ',ro' : ''}`, 'tmpfs', dir]);
  return {
    dir,
    remove: () => {
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes a filler file until the disk under `dir` has no byte left. */
function fillDisk(dir: string): void {
  const chunk = Buffer.alloc(64 * 1024, 1);
  for (let i = 0; ; i++) {
    try {
      writeFileSync(join(dir, `relleno-${i}`), chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      break;
    }
  }
  // The last bytes: smaller and smaller files until not even one fits.
  for (let size = 32 * 1024, i = 0; size >= 1; size = Math.floor(size / 2)) {
    try {
      writeFileSync(join(dir, `resto-${i++}`), Buffer.alloc(size, 1));
    } catch {
      /* this size no longer fits */
    }
  }
}

/** The SQLite error a statement really raises, or null when it succeeds. */
function sqliteError(run: () => void): unknown {
  try {
    run();
    return null;
  } catch (error) {
    return error;
  }
}

describe('the disk errors, as SQLite and Node raise them', () => {
  it('tells a full, read-only or unopenable database from an error of the request', () => {
    const dir = mkdtempSync(join(tmpdir(), 'comanda-storage-'));
    try {
      const file = join(dir, 'pos.db');
      const db = new SQLite(file);
      db.exec('create table t (x text); create table u (x text not null)');
      const constraint = sqliteError(() => db.exec('insert into u values (null)'));
      expect((constraint as { code?: string }).code).toMatch(/^SQLITE_CONSTRAINT/);
      expect(storageFailure(constraint)).toBeNull();
      const pages = Number(db.pragma('page_count', { simple: true }));
      db.pragma(`max_page_count = ${pages}`);
      const full = sqliteError(() => db.prepare('insert into t values (?)').run('x'.repeat(100_000)));
      expect((full as { code?: string }).code).toBe('SQLITE_FULL');
      expect(storageFailure(full)).toEqual({ problem: 'full', code: 'SQLITE_FULL' });
      db.close();

      const readOnly = new SQLite(file, { readonly: true });
      const refused = sqliteError(() => readOnly.prepare('insert into t values (?)').run('x'));
      readOnly.close();
      expect(storageFailure(refused)?.problem).toBe('readOnly');

      // A folder where the database file should be: SQLite cannot open it.
      const cannotOpen = sqliteError(() => new SQLite(dir).pragma('journal_mode = WAL'));
      expect(storageFailure(cannotOpen)).toEqual({ problem: 'denied', code: 'SQLITE_CANTOPEN' });
      // Carried as the cause of another error (a commit group SQLite rolled back as a whole).
      expect(storageFailure(new Error('SQLite rolled back the transaction', { cause: full }))?.problem).toBe('full');
      expect(storageFailure(new Error('otro error'))).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!canMount)("Node's ENOSPC and EROFS on real mounts", () => {
    const small = tmpfs('64k');
    const ro = tmpfs('64k', true);
    try {
      fillDisk(small.dir);
      const noSpace = sqliteError(() => writeFileSync(join(small.dir, 'x'), Buffer.alloc(8192)));
      expect(storageFailure(noSpace)).toEqual({ problem: 'full', code: 'ENOSPC' });
      const readOnly = sqliteError(() => writeFileSync(join(ro.dir, 'x'), 'x'));
      expect(storageFailure(readOnly)).toEqual({ problem: 'readOnly', code: 'EROFS' });
    } finally {
      small.remove();
      ro.remove();
    }
  });
});

describe('a full disk under a running server (SQLite)', () => {
  let server: TestServer;
  let admin: ApiClient;
  let next = 0;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    admin = await server.login(server.users.admin.email);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const health = async () => server.anonymous().get<Health>('/api/health');
  const newProduct = () => admin.post<Refusal>('/api/products', product(next++));

  it('answers 503 with a Spanish text, health says degraded with the reason and when, and a later write clears it', async () => {
    expect((await health()).body).toMatchObject({ ok: true });
    const db = server.ctx.db.db;
    const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows[0]!.page_count;
    await sql.raw(`pragma max_page_count = ${pages}`).execute(db);
    let refused: Awaited<ReturnType<typeof newProduct>> | null = null;
    const before = Date.now();
    try {
      for (let i = 0; i < 2000 && !refused; i++) {
        const res = await newProduct();
        if (res.status !== 201) refused = res;
      }
    } finally {
      await sql.raw('pragma max_page_count = 1073741823').execute(db);
    }
    expect(refused?.status).toBe(503);
    expect(refused?.body.error).toEqual({ code: 'storage_full', message: MESSAGES.storage.full });

    const degraded = await health();
    expect(degraded.status).toBe(200); // still serving reads; the web app takes a non-2xx probe for "offline"
    expect(degraded.body).toMatchObject({
      ok: false,
      status: 'degraded',
      database: 'sqlite',
      databaseReachable: true,
      lastWriteFailure: { reason: MESSAGES.storage.full, code: 'SQLITE_FULL' },
    });
    expect(degraded.body.lastWriteFailure!.at).toBeGreaterThanOrEqual(before);

    // Space again: the next write goes through and health is back to ok.
    expect((await newProduct()).status).toBe(201);
    expect((await health()).body).toMatchObject({ ok: true, status: 'ok', lastWriteFailure: null });
  }, 60_000);
});

describe.skipIf(!canMount)('a disk filled to the last byte under a running server (tmpfs)', () => {
  it('every write answers 2xx or 503 in Spanish, never 500; reads go on', async () => {
    const disk = tmpfs('24m');
    let server: RunningServer | null = null;
    try {
      const dataDir = join(disk.dir, 'data');
      mkdirSync(dataDir);
      const config = testServerConfig({ url: `sqlite:${join(dataDir, 'pos.db')}`, dataDir }, { BACKUP_EVERY: 'off' });
      server = await createServer({ config, log: () => undefined });
      await seedDemo(server.ctx);
      const url = await listenOnLoopback(server);
      const admin = await loginAt(url, 'admin@comanda.mx');
      fillDisk(disk.dir);
      const statuses: number[] = [];
      let refusal: Refusal | null = null;
      for (let i = 0; i < 3000 && !refusal; i++) {
        const res = await admin.post<Refusal>('/api/products', product(i));
        statuses.push(res.status);
        if (res.status !== 201) refusal = res.body;
      }
      expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
      expect(statuses.at(-1)).toBe(503);
      expect(refusal?.error.message).toBe(MESSAGES.storage[refusal?.error.code === 'storage_full' ? 'full' : 'failing']);
      expect((await admin.get('/api/tables')).status).toBe(200);
      const health = (await (await fetch(`${url}/api/health`)).json()) as Health;
      expect(health).toMatchObject({ ok: false, status: 'degraded' });
    } finally {
      await server?.close().catch(() => undefined);
      disk.remove();
    }
  }, 120_000);
});

/** Runs the server's start as `npm start` would, and waits for it to exit (or 30 s). */
async function startOn(dataDir: string): Promise<{ code: number | null; output: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${join(dataDir, 'pos.db')}`,
      PIN_SECRET: 'test-pin-secret-0123456789',
      DEMO_DATA: 'off',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output };
}

describe.skipIf(!canMount)('a start on a data folder that cannot take data', () => {
  it('read-only: says so in Spanish and exits non-zero, without a stack trace', async () => {
    const disk = tmpfs('1m', true);
    try {
      const { code, output } = await startOn(disk.dir);
      expect(code).toBe(1);
      expect(output).toContain(`La carpeta de datos ${disk.dir} es de solo lectura`);
      expect(output).not.toMatch(/^\s+at /m);
      expect(output).not.toContain('read-only file system');
    } finally {
      disk.remove();
    }
  }, 60_000);

  it('full: says so in Spanish and exits non-zero, without a stack trace', async () => {
    const disk = tmpfs('256k');
    try {
      fillDisk(disk.dir);
      const { code, output } = await startOn(disk.dir);
      expect(code).toBe(1);
      expect(output).toContain(`El disco de la carpeta de datos ${disk.dir} está lleno`);
      expect(output).not.toMatch(/^\s+at /m);
      expect(output).not.toContain('no space left');
    } finally {
      disk.remove();
    }
  }, 60_000);
});
