import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import { daySlot, monthSlot } from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';
import { withRiders, type Rider } from '../../db/compiled.ts';
import { ROLLUP_TABLES } from '../../db/rollup-tables.ts';

/**
 * A RollupSet collects rows of the summary tables (ROLLUP_TABLES) in memory, merged by key, and
 * `upsertRollups` adds them to the tables with `INSERT … ON CONFLICT DO UPDATE SET x = x + excluded.x`
 * — an increment the database applies under its own row lock, so concurrent closes never lose one
 * another's figures.
 */
export { ROLLUP_TABLES };

export type RollupTable = keyof typeof ROLLUP_TABLES;
export type RollupRow = Record<string, string | number>;
export type RollupSet = Record<RollupTable, Map<string, RollupRow>>;

export function emptyRollups(): RollupSet {
  return {
    report_sales: new Map(),
    report_products: new Map(),
    report_waiters: new Map(),
    report_methods: new Map(),
    report_losses: new Map(),
    report_taxes: new Map(),
  };
}

const keyOf = (table: RollupTable, row: RollupRow): string => ROLLUP_TABLES[table].keys.map((k) => String(row[k])).join('\u0000');

/** Adds a row into the set: sums add up on the same key, labels take the newest. */
export function addRollup(set: RollupSet, table: RollupTable, row: RollupRow): void {
  const key = keyOf(table, row);
  const existing = set[table].get(key);
  if (!existing) {
    set[table].set(key, { ...row });
    return;
  }
  for (const column of ROLLUP_TABLES[table].sums) existing[column] = Number(existing[column] ?? 0) + Number(row[column] ?? 0);
  for (const column of ROLLUP_TABLES[table].labels) existing[column] = row[column] ?? existing[column] ?? '';
}

/** Tables also kept per whole day and month (day and month slots, packages/domain reports.ts); sales stay by hour. */
const DAILY: RollupTable[] = ['report_products', 'report_waiters', 'report_methods', 'report_losses'];

/** Adds each hour row of the detail tables again under its day slot and under its month slot. */
export function withDayRows(set: RollupSet): RollupSet {
  for (const table of DAILY)
    for (const row of [...set[table].values()]) {
      const slot = Number(row.slot);
      if (slot < 1e9) continue;
      addRollup(set, table, { ...row, slot: daySlot(slot) });
      addRollup(set, table, { ...row, slot: monthSlot(slot) });
    }
  return set;
}

const BATCH = 400;

/**
 * Adds every row of the set to its table. Keys go in one global order (tables in ROLLUP_TABLES'
 * order, each table's keys sorted): two transactions adding to the same rows take their row locks
 * in the same order, so they queue and never deadlock. One statement per table and batch; with
 * `oneCall` (a close, a void, a cancellation: a few rows) on PostgreSQL, one round trip,
 * `comanda_add_rollups` (db/functions), which runs the same statements in the same order. The
 * backfill of migration 0014 runs before that function exists, and never asks for it.
 */
export async function upsertRollups(
  trx: Trx,
  set: RollupSet,
  opts: {
    oneCall?: boolean;
    /** INSERTs that go along (a close's audit entry and ticket jobs): CTEs of the one call on PostgreSQL, run first otherwise. */
    riders?: readonly Rider[];
  } = {},
): Promise<void> {
  const riders = opts.riders ?? [];
  const call = opts.oneCall ? rollupsCall(trx, set) : null;
  if (call) {
    await (riders.length > 0 ? withRiders(trx, riders).selectNoFrom(call.as('added')).execute() : sql`select ${call}`.execute(trx));
    return;
  }
  const filled = filledTables(set);
  for (const rider of riders) await rider.execute();
  for (const [table, rows] of filled) {
    const spec = ROLLUP_TABLES[table];
    const columns: string[] = [...spec.keys, ...spec.sums, ...spec.labels];
    for (let from = 0; from < rows.length; from += BATCH) {
      const chunk = rows.slice(from, from + BATCH);
      const values = chunk.map((row) => sql`(${sql.join(columns.map((c) => row[c] ?? 0))})`);
      const updates = [
        ...spec.sums.map((c) => sql`${sql.ref(c)} = ${sql.ref(`${table}.${c}`)} + excluded.${sql.ref(c)}`),
        ...spec.labels.map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`),
      ];
      await sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) VALUES ${sql.join(values)}
        ON CONFLICT (${sql.join(spec.keys.map((c) => sql.ref(c)))}) DO UPDATE SET ${sql.join(updates)}`.execute(trx);
    }
  }
}

/** The tables with rows, each table's rows sorted by key (the order every writer locks them in). */
function filledTables(set: RollupSet) {
  return (Object.keys(ROLLUP_TABLES) as RollupTable[])
    .map((table) => [table, [...set[table].entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row)] as const)
    .filter(([, rows]) => rows.length > 0);
}

/**
 * PostgreSQL: the whole set as one call of `comanda_add_rollups` (db/functions), an expression
 * another statement may carry; null on SQLite, for an empty set, or past a batch in one table.
 */
export function rollupsCall(trx: Trx, set: RollupSet): RawBuilder<unknown> | null {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return null;
  const filled = filledTables(set);
  if (filled.length === 0 || filled.some(([, rows]) => rows.length > BATCH)) return null;
  const sets = Object.fromEntries(filled.map(([table, rows]) => [table, rows.map((row) => completeRow(table, row))]));
  return sql`comanda_add_rollups(${JSON.stringify(sets)}::jsonb)`;
}

/** A row with every column of its table, as the statement would bind it (a missing value is 0). */
function completeRow(table: RollupTable, row: RollupRow): RollupRow {
  const spec = ROLLUP_TABLES[table];
  return Object.fromEntries([...spec.keys, ...spec.sums, ...spec.labels].map((c: string) => [c, row[c] ?? 0]));
}
