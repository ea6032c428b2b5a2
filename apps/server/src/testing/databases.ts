import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type TestDbKind = 'sqlite' | 'postgres';

/**
 * SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. Under CI=true PostgreSQL is
 * required: a suite without it fails instead of passing on SQLite alone.
 */
export function testDatabaseKinds(): TestDbKind[] {
  if (process.env.TEST_DATABASE_URL) return ['sqlite', 'postgres'];
  if (process.env.CI === 'true') throw new Error('CI=true but TEST_DATABASE_URL is not set: the PostgreSQL suites must run in CI');
  return ['sqlite'];
}

export interface TestDatabase {
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

/** Where Vitest's global setup (global-setup.ts) left this run's migrated databases, one per kind. */
export const SQLITE_TEMPLATE_ENV = 'COMANDA_TEST_SQLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_ENV = 'COMANDA_TEST_POSTGRES_TEMPLATE';

/**
 * A fresh, isolated database: a temp SQLite file, or a new PostgreSQL database. Empty, or with
 * `migrated` a copy of the run's migrated template when there is one (a server migrates whatever
 * is left, so without a template it is empty and the start takes longer).
 */
export async function createTestDatabase(kind: TestDbKind, { migrated = false } = {}): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-test-'));
  if (kind === 'sqlite') {
    const file = join(dataDir, 'pos.db');
    const template = migrated ? process.env[SQLITE_TEMPLATE_ENV] : undefined;
    if (template && existsSync(template)) {
      copyFileSync(template, file);
      if (existsSync(`${template}-wal`)) copyFileSync(`${template}-wal`, `${file}-wal`);
    }
    return { url: `sqlite:${file}`, dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `comanda_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const template = migrated ? process.env[POSTGRES_TEMPLATE_ENV] : undefined;
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir,
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await c.end();
    },
  };
}
