import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../connect.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/** The summary tables as migration 0014 made them: keys, the columns that add up, the labels that take the newest value. */
const TABLES: Record<string, { keys: [string, string][]; sums: string[]; labels: string[] }> = {
  report_sales: { keys: [['slot', 'integer']], sums: ['orders', 'items', 'subtotal', 'discount', 'comp', 'tips', 'total'], labels: [] },
  report_products: {
    keys: [
      ['slot', 'integer'],
      ['product_id', 'text'],
      ['product_name', 'text'],
      ['category', 'text'],
    ],
    sums: ['units', 'amount'],
    labels: [],
  },
  report_waiters: {
    keys: [
      ['slot', 'integer'],
      ['waiter_key', 'text'],
    ],
    sums: ['orders', 'total', 'tips'],
    labels: ['waiter_name'],
  },
  report_methods: {
    keys: [
      ['slot', 'integer'],
      ['method', 'text'],
    ],
    sums: ['payments', 'amount', 'tips'],
    labels: [],
  },
  report_losses: {
    keys: [
      ['slot', 'integer'],
      ['kind', 'text'],
      ['reason', 'text'],
      ['user_key', 'text'],
    ],
    sums: ['count', 'units', 'amount'],
    labels: ['user_name'],
  },
};

function upsertOf(table: string): string {
  const { keys, sums, labels } = TABLES[table]!;
  const columns = [...keys, ...sums.map((c) => [c, 'bigint'] as const), ...labels.map((c) => [c, 'text'] as const)];
  const names = columns.map(([c]) => c);
  const updates = [...sums.map((c) => `${c} = ${table}.${c} + excluded.${c}`), ...labels.map((c) => `${c} = excluded.${c}`)];
  return `INSERT INTO ${table} (${names.join(', ')})
    SELECT ${names.map((c) => `r.${c}`).join(', ')}
    FROM jsonb_array_elements(sets -> '${table}') WITH ORDINALITY AS e(row, n),
      jsonb_to_record(e.row) AS r(${columns.map(([c, type]) => `${c} ${type}`).join(', ')})
    ORDER BY e.n
    ON CONFLICT (${keys.map(([c]) => c).join(', ')}) DO UPDATE SET ${updates.join(', ')};`;
}

/**
 * PostgreSQL only: a close's (or a void's, a cancellation's) additions to the report summary
 * tables in one round trip (issue 20 item 1; decision 0043). `comanda_add_rollups(sets)` runs the
 * five `INSERT … ON CONFLICT DO UPDATE` statements the server ran one by one, in the same order —
 * the tables in this order, each table's rows in the order the array gives them — so two
 * transactions adding to the same rows still take their row locks in one global order and never
 * deadlock. `sets` maps a table's name to its rows (objects with every column); a table left out
 * adds nothing. It holds no rule: the rows are computed by the server (model/reports/rollup-set.ts).
 */
export function rollupFunction(kind: DbKind) {
  return {
    async up(db: AnyDb): Promise<void> {
      if (kind !== 'postgres') return;
      const body = Object.keys(TABLES).map(upsertOf).join('\n  ');
      await sql
        .raw(
          `CREATE OR REPLACE FUNCTION comanda_add_rollups(sets jsonb) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  ${body}
END
$fn$`,
        )
        .execute(db);
    },
  };
}
