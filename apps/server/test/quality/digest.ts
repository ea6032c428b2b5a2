import { createHash } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';

/**
 * Tables whose rows change on reads (session touch), that only ever grow by design, or that
 * count attempts (the throttles shared by every process, decision 0018: counting a refused
 * sign-in or PIN is what they are for).
 */
const SKIPPED = new Set(['sessions', 'audit_log', 'throttle_hits', 'throttle_backoffs']);

const names = new WeakMap<object, Promise<string[]>>();

function tablesOf(db: Kysely<Database>): Promise<string[]> {
  let list = names.get(db);
  if (!list) {
    list = db.introspection.getTables().then((tables) =>
      tables
        .map((t) => t.name)
        .filter((n) => !SKIPPED.has(n))
        .sort(),
    );
    names.set(db, list);
  }
  return list;
}

/**
 * PostgreSQL hashes every table in one query on the server (each row as its record text, sorted):
 * reading every row over the wire, table by table, made each digest cost dozens of round trips.
 */
async function pgTableHashes(db: Kysely<Database>, tables: string[]): Promise<Record<string, string>> {
  const parts = tables.map(
    (name) =>
      sql`SELECT ${name}::text AS name, md5(coalesce(string_agg(t::text, E'\n' ORDER BY t::text), '')) AS hash, count(*)::int AS n FROM ${sql.table(name)} t`,
  );
  const { rows } = await sql<{ name: string; hash: string; n: number }>`${sql.join(parts, sql` UNION ALL `)}`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.name, `${r.hash.slice(0, 16)}:${r.n}`]));
}

/** Per table, a hash of its rows sorted by their serialisation (physical order does not matter). */
export async function tableHashes(db: Kysely<Database>): Promise<Record<string, string>> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return pgTableHashes(db, await tablesOf(db));
  const out: Record<string, string> = {};
  for (const name of await tablesOf(db)) {
    // Table names come from introspection, outside Kysely's static schema type.
    const rows = await (db as unknown as Kysely<Record<string, Record<string, unknown>>>).selectFrom(name).selectAll().execute();
    const lines = rows.map((r) => JSON.stringify(r)).sort();
    out[name] = createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16) + `:${lines.length}`;
  }
  return out;
}

/**
 * A digest of every row of every table but sessions and audit_log, found by introspection so a
 * table added by a later migration is covered too.
 */
export async function databaseDigest(db: Kysely<Database>): Promise<string> {
  return JSON.stringify(await tableHashes(db));
}

/** Names the tables that differ between two digests. */
export function changedTables(before: string, after: string): string[] {
  const a = JSON.parse(before) as Record<string, string>;
  const b = JSON.parse(after) as Record<string, string>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]);
}

/**
 * Watches one database for writes. With SQLite (in-process, one connection) total_changes()
 * is a free fast path: when it has not moved, no row can differ and the digest is skipped.
 */
export class WriteWatch {
  private digest = '';
  private changes = -1;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: 'sqlite' | 'postgres',
    /** Waits for what the server writes just after an answer (keptAnswersWritten). */
    private readonly settle: () => Promise<void>,
  ) {}

  private async changeCount(): Promise<number> {
    if (this.kind !== 'sqlite') return -1;
    const { rows } = await sql<{ n: number }>`SELECT total_changes() AS n`.execute(this.db);
    return Number(rows[0]?.n ?? -1);
  }

  /**
   * Takes the current state as the reference, once the in-process server has done what it does
   * right after an answer: a keyed write's answer is stored a moment after it is sent (decision
   * 0033), in a turn of the event loop (and, on PostgreSQL, round trips) that may come after the
   * test has read the answer.
   */
  async rebase(): Promise<void> {
    await this.settle();
    const changes = await this.changeCount();
    // SQLite: with no change since the last digest, the reference is still exact.
    if (changes !== -1 && changes === this.changes && this.digest) return;
    this.changes = changes;
    this.digest = await databaseDigest(this.db);
  }

  /** Tables whose rows differ from the reference (sessions and audit_log aside). */
  async changedTables(): Promise<string[]> {
    const changes = await this.changeCount();
    if (changes !== -1 && changes === this.changes) return [];
    this.changes = changes;
    return changedTables(this.digest, await databaseDigest(this.db));
  }
}
