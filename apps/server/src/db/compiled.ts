import type { Compilable, CompiledQuery, Kysely, OperationNodeSource, QueryCreator, QueryResult, RootOperationNode } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Hot statements built once (decision 0041, as amended).
 *
 * Kysely builds every query as a tree of frozen nodes and compiles that tree to SQL on every call:
 * on an item add that was about a fifth of the server's own time (bench/write-throughput.ts's
 * profile). A statement made with `compiledOnce` is built and compiled by Kysely once per database
 * kind, with named slots where its values go; every call afterwards only puts the values in the
 * slots and runs the same SQL text: through Kysely's executor on PostgreSQL (its prepared statements
 * see it as any other), and on SQLite straight on the driver whenever the connection is the caller's
 * to use (runDirectly); the metrics see it either way.
 *
 * `build` receives stand-ins for the values: it may place them anywhere Kysely takes a value (a
 * `where`, an insert's or an update's value, a `sql` template's parameter) and must do nothing else
 * with them (no test on them, no spread). A slot holds one value: a list given for it is refused
 * (Kysely writes one parameter per value of an `in` list when it builds, so a list's length is
 * part of the statement's shape). A statement whose shape depends on its values is not for here.
 */
export type Statement<A extends Record<string, unknown>, R> = (db: Kysely<Database>, args: A) => Promise<QueryResult<R>>;

/** Where one of the compiled statement's parameters comes from: a slot named by the caller, or a constant of the build. */
type Source = { slot: string } | { value: unknown };

interface Plan {
  sql: string;
  sources: readonly Source[];
  query: RootOperationNode;
  queryId: CompiledQuery['queryId'];
}

class Slot {
  constructor(readonly name: string) {}
}

/** The stand-ins `build` receives: any property read gives that name's slot. */
const SLOTS = new Proxy({} as Record<string, unknown>, {
  get: (_target, name) => (typeof name === 'string' ? new Slot(name) : undefined),
});

/** SQLite: runs a statement at once on the one connection, or gives undefined when it may not now. */
export type DirectRun = <R>(sql: string, parameters: unknown[]) => QueryResult<R> | undefined;
const direct = new WeakMap<object, DirectRun>();

/**
 * SQLite: a statement built once on `db` runs through `run` (better-sqlite3 at once), not through
 * Kysely's executor, whose layers of promises were a tenth of the server's thread under adds. A
 * transaction registers for as long as its work holds the connection (transact.ts); the database
 * itself for when no transaction holds it (connect.ts). When `run` gives undefined, Kysely's executor
 * takes the statement and queues it as before. Returns the release.
 */
export function runDirectly(db: object, run: DirectRun): () => void {
  direct.set(db, run);
  return () => direct.delete(db);
}

export function compiledOnce<A extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, args: A) => Compilable<R>,
): Statement<A, R> {
  // One plan per dialect: the adapter's class (PostgreSQL's or SQLite's) decides the SQL text.
  const plans = new Map<unknown, Plan>();
  const planFor = (db: Kysely<Database>): Plan => {
    const dialect = db.getExecutor().adapter.constructor;
    let plan = plans.get(dialect);
    if (!plan) {
      const compiled = build(db, SLOTS as A).compile();
      const sources = compiled.parameters.map((p): Source => (p instanceof Slot ? { slot: p.name } : { value: p }));
      plan = { sql: compiled.sql, sources, query: compiled.query, queryId: compiled.queryId };
      plans.set(dialect, plan);
    }
    return plan;
  };
  return (db, args) => {
    let plan: Plan;
    let parameters: unknown[];
    try {
      plan = planFor(db);
      parameters = plan.sources.map((source) => {
        if (!('slot' in source)) return source.value;
        const value = args[source.slot];
        // A missing value would bind as nothing (SQLite) or fail late (PostgreSQL): refuse it here.
        if (value === undefined) throw new Error(`compiledOnce: no value for "${source.slot}" (${plan.sql})`);
        // Kysely spreads a list into one parameter per value when it builds; one slot is one value.
        if (Array.isArray(value)) throw new Error(`compiledOnce: a list of values for "${source.slot}" (${plan.sql})`);
        return value;
      });
      const result = direct.get(db)?.<R>(plan.sql, parameters);
      if (result) return Promise.resolve(result);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return db.executeQuery<R>({ sql: plan.sql, parameters, query: plan.query, queryId: plan.queryId });
  };
}

/** The first row of a statement's result, or undefined (as Kysely's executeTakeFirst). */
export async function firstRow<A extends Record<string, unknown>, R>(
  statement: Statement<A, R>,
  db: Kysely<Database>,
  args: A,
): Promise<R | undefined> {
  return (await statement(db, args)).rows[0];
}

/**
 * A write built but not yet run (an audit entry, a print job): on PostgreSQL another statement
 * takes it along as a data-modifying CTE (Kysely builds it there from `toOperationNode`); on SQLite
 * it runs alone (`execute`), a statement built once.
 */
export interface Rider extends OperationNodeSource {
  execute(): Promise<unknown>;
}

/** A Rider of one row's INSERT (or UPDATE): `insert(db)` is the Kysely builder a CTE takes, `statement` the one run alone. */
export function insertRider<A extends Record<string, unknown>>(
  db: Kysely<Database>,
  row: A,
  insert: (db: Kysely<Database>, row: A) => OperationNodeSource,
  statement: Statement<A, unknown>,
): Rider {
  return {
    toOperationNode: () => insert(db, row).toOperationNode(),
    execute: () => statement(db, row),
  };
}

/**
 * PostgreSQL: a query creator whose next statement carries `riders` as data-modifying CTEs
 * (`WITH rider0 AS (INSERT …)`), so they run in that statement's round trip.
 */
export function withRiders(db: Kysely<Database>, riders: readonly Rider[]): QueryCreator<Database> {
  let creator: QueryCreator<Database> = db;
  for (const [i, rider] of riders.entries()) creator = creator.with(`rider${i}`, () => rider as never) as unknown as QueryCreator<Database>;
  return creator;
}
