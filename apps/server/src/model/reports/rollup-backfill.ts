import { sql, type Kysely } from 'kysely';
import { DEFAULT_TIMEZONE, slotAt, type TaxBreakdown } from '@comanda/domain';
import type { MigrationDataSteps } from '../../db/migrate.ts';
import type { Database } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { readConfig } from '../config-store.ts';
import { addRollup, emptyRollups, upsertRollups, withDayRows, type RollupSet, type RollupTable } from './rollup-set.ts';
import { addTaxRollups } from './rollups.ts';

/** Every time zone's offset is a multiple of 15 minutes, so a quarter hour lies inside one local hour. */
const QUARTER_MS = 900_000;
const quarter = (column: string) => sql<number>`CAST(${sql.ref(column)} / ${sql.lit(QUARTER_MS)} AS INTEGER)`;
type Raw = Record<string, string | number | null>;

/**
 * The report rollups recomputed from the raw rows, the way the write path adds them up: paid
 * orders (sales, products, waiters, payment methods, live discounts and comps) at their paid
 * instant, voids at the void's instant (not those an order's cancellation made), cancellations
 * by a user at the cancel's instant. The database groups by quarter hour; each quarter is then
 * named by its business-local slot here, where the time zone is known.
 */
export async function rollupsFromRaw(db: Trx, timezone: string, opts: { taxes?: boolean } = {}): Promise<RollupSet> {
  const set = emptyRollups();
  const slots = new Map<number, number>();
  const slotOf = (q: string | number | null) => {
    const key = Number(q);
    let slot = slots.get(key);
    if (slot === undefined) slots.set(key, (slot = slotAt(key * QUARTER_MS, timezone)));
    return slot;
  };
  const add = (table: RollupTable, rows: Raw[]) => {
    for (const { q, ...row } of rows) {
      const clean = Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' || typeof v === 'number' ? v : '']));
      addRollup(set, table, { ...clean, slot: slotOf(q ?? 0) });
    }
  };
  const run = async (query: ReturnType<typeof sql<Raw>>) => (await query.execute(db)).rows;
  const paid = sql`o.status = 'pagado'`;
  const oq = quarter('o.completed_at');

  add(
    'report_sales',
    await run(sql<Raw>`
    SELECT ${oq} AS q, COUNT(*) AS orders, SUM(o.subtotal) AS subtotal, SUM(o.discount) AS discount, SUM(o.comp) AS comp,
      SUM(o.tip) AS tips, SUM(o.total) AS total,
      SUM((SELECT COALESCE(SUM(i.quantity), 0) FROM order_items i WHERE i.order_id = o.id AND i.is_deleted = 0)) AS items
    FROM orders o WHERE ${paid} GROUP BY 1`),
  );
  add(
    'report_products',
    await run(sql<Raw>`
    SELECT ${oq} AS q, i.product_id, i.product_name, i.category, SUM(i.quantity) AS units, SUM(i.quantity * i.product_price) AS amount
    FROM orders o JOIN order_items i ON i.order_id = o.id WHERE ${paid} AND i.is_deleted = 0 GROUP BY 1, 2, 3, 4`),
  );
  add(
    'report_waiters',
    await run(sql<Raw>`
    SELECT ${oq} AS q, COALESCE(o.waiter_id, '') AS waiter_key, COALESCE(MAX(o.waiter_name), '') AS waiter_name,
      COUNT(*) AS orders, SUM(o.total) AS total, SUM(o.tip) AS tips
    FROM orders o WHERE ${paid} GROUP BY 1, 2`),
  );
  add(
    'report_methods',
    await run(sql<Raw>`
    SELECT ${oq} AS q, p.method, COUNT(*) AS payments, SUM(p.amount) AS amount, SUM(p.tip_amount) AS tips
    FROM orders o JOIN payments p ON p.order_id = o.id WHERE ${paid} GROUP BY 1, 2`),
  );
  add(
    'report_losses',
    await run(sql<Raw>`
    SELECT ${oq} AS q, a.kind, a.reason, a.created_by AS user_key, MAX(a.created_by_name) AS user_name,
      COUNT(*) AS count, SUM(COALESCE(a.units, 0)) AS units, SUM(a.amount) AS amount
    FROM orders o JOIN order_adjustments a ON a.order_id = o.id WHERE ${paid} AND a.removed_at IS NULL GROUP BY 1, 2, 3, 4`),
  );
  add(
    'report_losses',
    await run(sql<Raw>`
    SELECT ${quarter('i.deleted_at')} AS q, 'void' AS kind, i.void_reason AS reason, COALESCE(i.deleted_by, '') AS user_key,
      COALESCE(MAX(i.deleted_by_name), '') AS user_name, COUNT(*) AS count, SUM(i.quantity) AS units, SUM(i.quantity * i.product_price) AS amount
    FROM order_items i JOIN orders o ON o.id = i.order_id
    WHERE i.is_deleted = 1 AND i.void_reason IS NOT NULL AND NOT (o.status = 'cancelado' AND i.deleted_at = o.completed_at)
    GROUP BY 1, 2, 3, 4`),
  );
  add(
    'report_losses',
    await run(sql<Raw>`
    SELECT ${oq} AS q, 'cancel' AS kind, COALESCE(o.cancel_reason, '') AS reason, o.cancelled_by AS user_key,
      COALESCE(MAX(o.cancelled_by_name), '') AS user_name, COUNT(*) AS count,
      SUM((SELECT COALESCE(SUM(i.quantity), 0) FROM order_items i WHERE i.order_id = o.id AND i.is_deleted = 1 AND i.deleted_at = o.completed_at)) AS units,
      SUM((SELECT COALESCE(SUM(i.quantity * i.product_price), 0) FROM order_items i
        WHERE i.order_id = o.id AND i.is_deleted = 1 AND i.deleted_at = o.completed_at)) AS amount
    FROM orders o WHERE o.status = 'cancelado' AND o.cancelled_by IS NOT NULL GROUP BY 1, 2, 3, 4`),
  );
  if (opts.taxes !== false) await addTaxesFromPaid(db, set, slotOf);
  return withDayRows(set);
}

/** The tax rollup alone from the paid checks' breakdowns (migration 0031 fills its new table with it). */
export async function taxRollupsFromRaw(db: Trx, timezone: string): Promise<RollupSet> {
  const set = emptyRollups();
  const slots = new Map<number, number>();
  const slotOf = (q: number) => {
    let slot = slots.get(q);
    if (slot === undefined) slots.set(q, (slot = slotAt(q * QUARTER_MS, timezone)));
    return slot;
  };
  await addTaxesFromPaid(db, set, slotOf);
  return set;
}

const TAX_PAGE = 5_000;

/**
 * The tax rollup from each paid check's frozen breakdown (migration 0029 on), a page at a time:
 * the JSON is read, never re-derived from the lines, so the rollup says what the tickets said.
 */
async function addTaxesFromPaid(db: Trx, set: RollupSet, slotOf: (quarter: number) => number): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('orders')
      .select(['id', 'completed_at', 'tax_breakdown'])
      .where('status', '=', 'pagado')
      .where('tax_breakdown', 'is not', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(TAX_PAGE)
      .execute();
    for (const r of rows)
      addTaxRollups(set, slotOf(Math.floor(Number(r.completed_at) / QUARTER_MS)), JSON.parse(r.tax_breakdown!) as TaxBreakdown);
    if (rows.length < TAX_PAGE) return;
    after = rows.at(-1)!.id;
  }
}

/**
 * The business's time zone as stored in its settings (the 'general' config row), else the
 * server's BUSINESS_TIMEZONE, else Mexico City: a migration runs before the app's config object exists.
 */
export async function storedTimezone(db: Trx): Promise<string> {
  const general = await readConfig<{ timezone?: string }>(db, 'general');
  return general?.timezone ?? process.env.BUSINESS_TIMEZONE ?? DEFAULT_TIMEZONE;
}

/** The migrations' data steps for the report rollups (0014 and 0031), computed by this model. */
export const reportDataSteps: MigrationDataSteps = {
  reportRollups: (db) => backfillRollups(db, { taxes: false }),
  taxRollups: async (db) => upsertRollups(db, await taxRollupsFromRaw(db, await storedTimezone(db))),
};

/**
 * Fills empty rollup tables from the raw rows: migration 0014 (inside the migration's
 * transaction) and the benchmark after its bulk load.
 */
export async function backfillRollups(db: Kysely<Database>, opts: { taxes?: boolean } = {}): Promise<void> {
  await upsertRollups(db, await rollupsFromRaw(db, await storedTimezone(db), opts));
}
