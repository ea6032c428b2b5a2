/**
 * The durable one-row commit every write baseline measures (write-throughput.ts's raw loops and
 * raw-http-commit-server.ts): the server's own SQLite pragmas, and PostgreSQL's BEGIN/INSERT/COMMIT.
 */
import SQLite from 'better-sqlite3';
import type pg from 'pg';

/** SQLite in WAL with synchronous=FULL, as the server opens it: `commit(note)` is one durable transaction. */
export function sqliteOneRowCommits(file: string): { commit(note: string): void; close(): void } {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS bench_commit (id INTEGER PRIMARY KEY, note TEXT, at INTEGER)');
  const insert = db.prepare('INSERT INTO bench_commit (note, at) VALUES (?, ?)');
  const tx = db.transaction((note: string) => insert.run(note, Date.now()));
  return { commit: (note) => void tx(note), close: () => db.close() };
}

/** The table the PostgreSQL commits write; created once per database. */
export const PG_COMMIT_TABLE = 'CREATE TABLE IF NOT EXISTS bench_commit (id bigserial PRIMARY KEY, note text, at bigint)';

/** One durable transaction on a PostgreSQL client: three round trips. */
export async function pgOneRowCommit(client: pg.ClientBase, note: string): Promise<void> {
  await client.query('BEGIN');
  await client.query('INSERT INTO bench_commit (note, at) VALUES ($1, $2)', [note, Date.now()]);
  await client.query('COMMIT');
}
