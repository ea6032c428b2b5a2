import type SQLite from 'better-sqlite3';
import {
  type CompiledQuery,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * SQLite with group commit (docs/decisions/0035-sqlite-group-commit.md).
 *
 * SQLite has one connection, and a durable COMMIT (WAL, synchronous=FULL) waits for the disk on
 * the event loop: under load every mutation paid its own disk flush while the requests behind it
 * waited. Here the mutations of one turn of the event loop share one flush:
 *
 * - The first transaction of a group opens the real transaction (BEGIN); each transaction runs
 *   inside it as a SAVEPOINT. A transaction that fails rolls back to its savepoint: only its own
 *   work is undone, exactly as its own ROLLBACK would.
 * - When a transaction ends, the group COMMITs once the event loop has handled what is already
 *   waiting (setImmediate), or at once when the group is full or old. The requests that arrived
 *   together thus join one group.
 * - A mutation is not done until its group has committed: `transact()` (transact.ts) waits for
 *   the group's COMMIT before the caller answers or publishes, and a failed COMMIT fails every
 *   mutation of the group.
 * - Reads between two members of a group run on the same connection and may see the group's work
 *   before it is on disk; nothing leaves the server with it before it is: every HTTP answer waits
 *   for the open group (`settled()`, app.ts). A write outside a transaction commits the open
 *   group first: the print worker's claim of its jobs, before it sends their bytes, is one.
 */

/** At most this many transactions share one COMMIT… */
export const GROUP_MAX_MEMBERS = 32;
/** …and a group commits as soon as a transaction ends this long after the group began. */
export const GROUP_MAX_AGE_MS = 8;

const SAVEPOINT = 'comanda_member';

interface Group {
  members: number;
  startedAt: number;
  done: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** What the driver needs of better-sqlite3: its statement cache and whether a transaction is open. */
export interface SqliteHandle {
  prepare(source: string): SQLite.Statement;
  close(): void;
  readonly inTransaction: boolean;
}

export interface GroupCommitStats {
  groups: number;
  members: number;
  largest: number;
  /** Writes outside any transaction: each committed on its own (and cut the open group short). */
  alone: number;
  /**
   * Milliseconds the event loop spent inside SQLite so far: every statement's own run, BEGIN and
   * COMMIT included (a COMMIT writes the group's pages and waits for the disk). What is left of the
   * server's time per request is its own (bench/write-throughput.ts prints both).
   */
  busyMs: number;
  /** The COMMITs' share of busyMs. */
  commitMs: number;
}

export class GroupCommitDriver implements Driver {
  readonly #db: SqliteHandle;
  readonly #connection: DatabaseConnection;
  #locked = false;
  readonly #waiters: Array<() => void> = [];
  #group: Group | null = null;
  #inTransaction = false;
  #scheduled = false;
  /** The last statement's error: why SQLite may have rolled the whole group back. */
  #lastFailure: unknown = undefined;
  readonly stats: GroupCommitStats = { groups: 0, members: 0, largest: 0, alone: 0, busyMs: 0, commitMs: 0 };
  /** Told the time and text of the driver's own statements (BEGIN, SAVEPOINT, RELEASE, COMMIT…), as Kysely's log is told the others'. */
  onStatement?: (ms: number, sql: string) => void;

  constructor(db: SqliteHandle) {
    this.#db = db;
    this.#connection = {
      executeQuery: <R>(query: CompiledQuery) => this.#execute<R>(query),
      streamQuery: <R>(query: CompiledQuery) => this.#stream<R>(query),
    };
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#locked) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    this.#locked = true;
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    const group = this.#group;
    if (group && (group.members >= GROUP_MAX_MEMBERS || performance.now() - group.startedAt >= GROUP_MAX_AGE_MS)) this.#commitGroup();
    const next = this.#waiters.shift();
    if (next) return next(); // an open group stays open for the next in line
    this.#locked = false;
    if (this.#group && !this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#commitWhenFree);
    }
  }

  /** The group's COMMIT, after the requests already received in this turn of the event loop. */
  readonly #commitWhenFree = (): void => {
    this.#scheduled = false;
    // Someone holds the connection: its release commits or schedules again.
    if (!this.#locked) this.#commitGroup();
  };

  async beginTransaction(_connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    if (!this.#group) {
      this.#run('BEGIN');
      let resolve!: () => void;
      let reject!: (error: unknown) => void;
      const done = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      done.catch(() => undefined); // a group whose members all rolled back may fail unobserved
      this.#group = { members: 0, startedAt: performance.now(), done, resolve, reject };
      this.stats.groups++;
    }
    try {
      this.#run(`SAVEPOINT ${SAVEPOINT}`);
    } catch (error) {
      this.#failGroup(error);
      throw error;
    }
    this.#group.members++;
    this.stats.members++;
    this.stats.largest = Math.max(this.stats.largest, this.#group.members);
    this.#inTransaction = true;
  }

  async commitTransaction(): Promise<void> {
    this.#inTransaction = false;
    try {
      this.#run(`RELEASE ${SAVEPOINT}`);
    } catch (error) {
      this.#failGroup(error);
      throw error;
    }
  }

  async rollbackTransaction(): Promise<void> {
    this.#inTransaction = false;
    if (!this.#db.inTransaction) {
      // SQLite ended the whole transaction itself (an I/O error, a full disk): the group is lost,
      // and its other members are told why (the statement's error, e.g. SQLITE_FULL, as the cause).
      this.#failGroup(new Error('SQLite rolled back the transaction', { cause: this.#lastFailure }));
      return;
    }
    try {
      this.#run(`ROLLBACK TO ${SAVEPOINT}`);
      this.#run(`RELEASE ${SAVEPOINT}`);
    } catch (error) {
      this.#failGroup(error);
      throw error;
    }
  }

  async destroy(): Promise<void> {
    if (this.#group) this.#commitGroup();
    this.#db.close();
  }

  /**
   * The commit of the open group, if any: whatever was read or written so far is on disk once it
   * resolves. Inside a transaction, that is the transaction's own group.
   */
  settled(): Promise<void> | undefined {
    return this.#group?.done;
  }

  #commitGroup(): void {
    const group = this.#group;
    if (!group) return;
    this.#group = null;
    try {
      this.#run('COMMIT');
    } catch (error) {
      this.#abandon(group, error);
      return;
    }
    group.resolve();
  }

  #failGroup(error: unknown): void {
    const group = this.#group;
    if (!group) return;
    this.#group = null;
    this.#inTransaction = false;
    this.#abandon(group, error);
  }

  /** Undoes what is left of a group that cannot commit, and fails its members. */
  #abandon(group: Group, error: unknown): void {
    if (this.#db.inTransaction) {
      try {
        this.#run('ROLLBACK');
      } catch {
        // the connection reports the next statement's error
      }
    }
    group.reject(error);
  }

  #run(sql: string): void {
    const started = performance.now();
    try {
      this.#db.prepare(sql).run();
    } finally {
      const ms = performance.now() - started;
      this.stats.busyMs += ms;
      if (sql === 'COMMIT') this.stats.commitMs += ms;
      this.onStatement?.(ms, sql);
    }
  }

  #execute<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return Promise.resolve(this.#runStatement<R>(query.sql, query.parameters as unknown[], false));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /**
   * A statement of the transaction that holds the connection, run at once: what Kysely's executor
   * would do for it, without its layers of promises (compiled.ts). Told to `onStatement` as Kysely's
   * log is told the others.
   */
  runHeld<R>(sql: string, parameters: unknown[]): QueryResult<R> {
    return this.#runStatement<R>(sql, parameters, true);
  }

  /** A statement outside any transaction, run at once when no transaction holds the connection; else undefined (it waits its turn through Kysely). */
  runIfFree<R>(sql: string, parameters: unknown[]): QueryResult<R> | undefined {
    return this.#locked ? undefined : this.#runStatement<R>(sql, parameters, true);
  }

  /** One statement; its time counts in busyMs, and goes to `onStatement` when Kysely's log does not see it (`tell`). */
  #runStatement<R>(sql: string, parameters: unknown[], tell: boolean): QueryResult<R> {
    const statement = this.#db.prepare(sql);
    // A write outside a transaction (RETURNING ones too) commits on its own: the open group goes
    // to disk first, or the write would join it and answer before it is on disk.
    if (!this.#inTransaction && !statement.readonly) {
      if (this.#group) this.#commitGroup();
      this.stats.alone++;
    }
    const started = performance.now();
    try {
      if (statement.reader) {
        const build = rowBuilder(statement);
        return { rows: (statement.all(parameters) as unknown[][]).map(build) as R[] };
      }
      const { changes, lastInsertRowid } = statement.run(parameters);
      return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    } catch (error) {
      this.#lastFailure = error;
      throw error;
    } finally {
      const ms = performance.now() - started;
      this.stats.busyMs += ms;
      if (tell) this.onStatement?.(ms, sql);
    }
  }

  async *#stream<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const statement = this.#db.prepare(query.sql);
    if (!statement.reader) throw new Error('SQLite streams only statements that return rows');
    const build = rowBuilder(statement);
    for (const row of statement.iterate(query.parameters as unknown[])) yield { rows: [build(row as unknown[]) as R] };
  }
}

/**
 * Rows as objects built in JavaScript from SQLite's raw arrays. better-sqlite3 on Node 20 sets
 * each column of each row through V8's API (the name looked up, the object's shape grown one
 * property at a time): ~8 % of the server's thread under adds. A literal per column list, built
 * once, makes the same plain objects with one shape.
 */
type RowBuilder = (row: unknown[]) => Record<string, unknown>;
const builders = new WeakMap<SQLite.Statement, RowBuilder>();
/** Statements with the same columns share one builder (texts that vary, like IN lists of any length). */
const bySignature = new Map<string, RowBuilder>();

function rowBuilder(statement: SQLite.Statement): RowBuilder {
  let build = builders.get(statement);
  if (!build) {
    const names = statement.columns().map((column) => column.name);
    const signature = names.join('\0');
    build = bySignature.get(signature);
    if (!build) {
      // Quoted keys: one literal shape. A column named __proto__ acts as the driver's own Set does (a setter).
      const fields = names.map((name, i) => `${JSON.stringify(name)}: row[${i}]`);
      build = new Function('row', `return { ${fields.join(', ')} };`) as RowBuilder;
      if (bySignature.size < 2000) bySignature.set(signature, build);
    }
    statement.raw(true);
    builders.set(statement, build);
  }
  return build;
}

/** Kysely's SQLite dialect with the group-commit driver. */
export class GroupCommitSqliteDialect extends SqliteDialect {
  readonly driver: GroupCommitDriver;
  constructor(db: SqliteHandle) {
    super({ database: db as never });
    this.driver = new GroupCommitDriver(db);
  }
  override createDriver(): Driver {
    return this.driver;
  }
}
