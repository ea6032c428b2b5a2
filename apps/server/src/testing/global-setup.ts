import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connect } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { reportDataSteps } from '../model/reports/rollup-backfill.ts';
import { SQLITE_TEMPLATE_ENV, POSTGRES_TEMPLATE_ENV } from './databases.ts';

/**
 * Vitest's global setup: one migrated database per kind for the whole run. A test server starts
 * from a copy of it (databases.ts) instead of running every migration again, ~2 s a start.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-template-'));
  const file = join(dir, 'template.db');
  const sqlite = connect(`sqlite:${file}`);
  await migrateToLatest(sqlite, reportDataSteps);
  await sqlite.close(); // the last connection's close folds the -wal into the file
  process.env[SQLITE_TEMPLATE_ENV] = file;

  const adminUrl = process.env.TEST_DATABASE_URL;
  let template: string | null = null;
  if (adminUrl) {
    template = `comanda_tpl_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `CREATE DATABASE ${template}`);
    const url = new URL(adminUrl);
    url.pathname = `/${template}`;
    const postgres = connect(url.toString());
    await migrateToLatest(postgres, reportDataSteps);
    await postgres.close();
    process.env[POSTGRES_TEMPLATE_ENV] = template;
  }

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (adminUrl && template) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  };
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
