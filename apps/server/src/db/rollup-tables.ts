/**
 * The report summary tables (migration 0014) as data: each one's key columns, the columns that
 * add up, and the label columns that take the newest value. upsertRollups (model/reports) and
 * comanda_add_rollups (db/functions) both write their statements from it.
 */
export const ROLLUP_TABLES = {
  report_sales: { keys: ['slot'], sums: ['orders', 'items', 'subtotal', 'discount', 'comp', 'tips', 'total'], labels: [] },
  report_products: { keys: ['slot', 'product_id', 'product_name', 'category'], sums: ['units', 'amount'], labels: [] },
  report_waiters: { keys: ['slot', 'waiter_key'], sums: ['orders', 'total', 'tips'], labels: ['waiter_name'] },
  report_methods: { keys: ['slot', 'method'], sums: ['payments', 'amount', 'tips'], labels: [] },
  report_losses: { keys: ['slot', 'kind', 'reason', 'user_key'], sums: ['count', 'units', 'amount'], labels: ['user_name'] },
  // The paid checks' frozen tax breakdowns by hour, treatment and IEPS rate ('0': none); migration 0031.
  report_taxes: { keys: ['slot', 'treatment', 'ieps_rate_bp'], sums: ['base', 'tax', 'ieps', 'amount'], labels: [] },
} as const;

/** A key column's SQL type: the slot is a number, every other key a text. */
export const rollupKeyType = (column: string): 'integer' | 'text' => (column === 'slot' ? 'integer' : 'text');
