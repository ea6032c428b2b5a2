import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { preparingPool } from './pg-prepared.ts';
import { PRIVATE_FILE, privateDir, privateFile, restrictMode } from './private-files.ts';
import { GroupCommitSqliteDialect, type GroupCommitStats } from './sqlite-group-commit.ts';
import { runDirectly, type DirectRun } from './compiled.ts';
import { startCheckpointer, type Checkpointer } from './sqlite-checkpointer.ts';

export type DbKind = 'sqlite' | 'postgres';
export interface Db {
  db: Kysely<Database>;
  kind: DbKind;
  url: string;
  close(): Promise<void>;
  /** Set by the metrics (ops/metrics.ts): told each query's duration and SQL text. */
  onQuery?: (ms: number, sql: string) => void;
  /**
   * SQLite: the commit of the open group, if any (sqlite-group-commit.ts); what was read or written
   * so far is on disk once it resolves. Inside a transaction, its own group: transact.ts waits for
   * it. PostgreSQL commits each transaction itself: undefined.
   */
  settled?: () => Promise<void> | undefined;
  /** SQLite: runs a statement at once on the connection the calling transaction holds (compiled.ts's runDirectly). */
  runHeld?: DirectRun;
  /** SQLite: how many groups committed, with how many transactions, the largest group. */
  groupCommits?: GroupCommitStats;
  /** SQLite on a file: the thread that checkpoints its log (sqlite-checkpointer.ts). */
  checkpointer?: Checkpointer;
  /**
   * PostgreSQL: item adds made in one statement so far, those it handed to the TypeScript add,
   * and the statements that carried several adds with the adds in them.
   */
  quickAdds?: { taken: number; handedOver: number; groups: number; grouped: number };
  /** PostgreSQL: deletes with PIN made in one statement so far, and those it handed to the TypeScript delete. */
  quickDeletes?: { taken: number; handedOver: number };
}

/** Kysely's log hook, forwarding to db.onQuery once it is set. */
function timings(handle: { current?: Db }) {
  return (event: LogEvent) => handle.current?.onQuery?.(event.queryDurationMillis, event.query.sql);
}

/**
 * PostgreSQL refused the statement with an ERROR and the connection lives on: the statement, and
 * its transaction when it was alone, was rolled back, so sending it again cannot write it twice. A
 * lost connection or a FATAL (a restart under way) may come after its COMMIT, and is not this.
 */
export function undoneByDatabase(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.severity === 'ERROR';
}

// int8 (sums, counts, epoch ms) fits a JS number: money in centavos stays far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export function connect(url: string): Db {
  if (url.startsWith('sqlite:')) return connectSqlite(url.slice('sqlite:'.length));
  return connectPostgres(url);
}

function connectSqlite(file: string): Db {
  if (file !== ':memory:') {
    // Owner-only whatever the umask: the file, and so the -wal/-shm SQLite makes beside it.
    privateDir(dirname(file));
    privateFile(file);
    for (const suffix of ['-wal', '-shm']) restrictMode(file + suffix, PRIVATE_FILE);
  }
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  // FULL: an acknowledged write survives a power cut, not only a process crash.
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // A commit group's transactions are SAVEPOINTs (sqlite-group-commit.ts), and SQLite keeps what
  // each one may have to undo in a sub-journal: past 64 KB a temporary file, ~45 writes to it per
  // add under load, all on the event loop. In memory they are copies.
  database.pragma('temp_store = MEMORY');
  // Kysely prepares every query anew; the same few SQL texts repeat on every request, so keep
  // their prepared statements (bench/write-throughput.ts: 25–70 % more adds per second).
  const statements = new Map<string, SQLite.Statement>();
  const cached = {
    close: () => database.close(),
    get inTransaction() {
      return database.inTransaction;
    },
    prepare(source: string) {
      let statement = statements.get(source);
      if (!statement) {
        statement = database.prepare(source);
        if (statements.size < 500) statements.set(source, statement);
      }
      return statement;
    },
  };
  const handle: { current?: Db } = {};
  const dialect = new GroupCommitSqliteDialect(cached);
  const db = new Kysely<Database>({ dialect, log: timings(handle) });
  const driver = dialect.driver;
  driver.onStatement = (ms, sql) => handle.current?.onQuery?.(ms, sql);
  // Outside any transaction, a statement built once runs at once while no transaction holds the connection.
  runDirectly(db, (sql, parameters) => driver.runIfFree(sql, parameters));
  const checkpointer = file === ':memory:' ? undefined : startCheckpointer(file);
  return (handle.current = {
    db,
    kind: 'sqlite',
    url: `sqlite:${file}`,
    checkpointer,
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
    settled: () => driver.settled(),
    runHeld: (sql, parameters) => driver.runHeld(sql, parameters),
    groupCommits: driver.stats,
  });
}

/** How long an idle PostgreSQL connection stays open (ms). */
export const POOL_IDLE_MS = 10 * 60_000;

function connectPostgres(url: string): Db {
  // Idle connections are kept for 10 minutes, not pg's default 10 s: between a night's bursts a
  // closed connection came back as a new backend — its connection set-up, and cold caches, prepared
  // statements and PL/pgSQL functions, paid by the request that happened to open it.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000, idleTimeoutMillis: POOL_IDLE_MS });
  // A dropped connection must not crash the process; the next query reports the error.
  pool.on('error', () => undefined);
  // The pool listens for errors only on idle clients: a connection cut while checked out (a
  // database restart mid-transaction) would emit an unhandled 'error' and kill the process.
  // The query in flight still fails (and answers 503); the client is then discarded.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const handle: { current?: Db } = {};
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }), log: timings(handle) });
  return (handle.current = {
    db,
    kind: 'postgres',
    url,
    close: () => db.destroy(),
    quickAdds: { taken: 0, handedOver: 0, groups: 0, grouped: 0 },
    quickDeletes: { taken: 0, handedOver: 0 },
  });
}
