import { ROLLUP_TABLES, rollupKeyType } from '../rollup-tables.ts';
import type { SqlFunction } from './sql-function.ts';

/** One table's `INSERT … ON CONFLICT DO UPDATE` from the rows `sets` gives it, in their order. */
function upsertOf(table: keyof typeof ROLLUP_TABLES): string {
  const { keys, sums, labels } = ROLLUP_TABLES[table];
  const columns = [
    ...keys.map((c) => [c, rollupKeyType(c)] as const),
    ...sums.map((c) => [c, 'bigint'] as const),
    ...labels.map((c) => [c, 'text'] as const),
  ];
  const names = columns.map(([c]) => c);
  const updates = [...sums.map((c) => `${c} = ${table}.${c} + excluded.${c}`), ...labels.map((c) => `${c} = excluded.${c}`)];
  return `INSERT INTO ${table} (${names.join(', ')})
    SELECT ${names.map((c) => `r.${c}`).join(', ')}
    FROM jsonb_array_elements(sets -> '${table}') WITH ORDINALITY AS e(row, n),
      jsonb_to_record(e.row) AS r(${columns.map(([c, type]) => `${c} ${type}`).join(', ')})
    ORDER BY e.n
    ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${updates.join(', ')};`;
}

/**
 * A close's (or a void's, a cancellation's) additions to the report summary tables in one round
 * trip (decision 0043). `comanda_add_rollups(sets)` runs the statements upsertRollups runs one by
 * one, in the same order — the tables in ROLLUP_TABLES' order, each table's rows in the order the
 * array gives them — so two transactions adding to the same rows take their row locks in one
 * global order and never deadlock. `sets` maps a table's name to its rows (objects with every
 * column); a table left out adds nothing.
 */
export const addRollupsFunction: SqlFunction = {
  name: 'comanda_add_rollups',
  text: `CREATE OR REPLACE FUNCTION comanda_add_rollups(sets jsonb) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  ${(Object.keys(ROLLUP_TABLES) as (keyof typeof ROLLUP_TABLES)[]).map(upsertOf).join('\n  ')}
END
$fn$`,
};
