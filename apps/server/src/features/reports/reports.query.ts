import { sql } from 'kysely';
import type { ReportLossKind, ReportsResponse } from '@comanda/contract';
import {
  addCents,
  averageTicket,
  breakdownOf,
  cents,
  dayStartHour,
  detailSlotRanges,
  foldHours,
  foldWeekdays,
  IVA_RATE_BP,
  isTaxTreatment,
  TAX_TREATMENTS,
  slotRange,
  ZERO,
  type Cents,
  type PeriodSales,
  type TaxBreakdown,
  type TaxGroup,
} from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import type { Trx } from '../../http/transaction.ts';
import { getGeneralConfig } from '../../model/config-store.ts';
import { type Numeric, toCents, toCount as n } from '../../model/sql-figures.ts';

/** The domain folds add plain numbers; what leaves here is branded centavos. */
const branded = <T extends PeriodSales>(p: T) => ({ ...p, total: cents(p.total), tips: cents(p.tips) });
const LOSS_ORDER: ReportLossKind[] = ['void', 'cancel', 'discount', 'comp'];
const byAmount = <T extends { amount: number }>(a: T, b: T) => b.amount - a.amount;

export interface ReportRange {
  from: string;
  to: string;
  timezone: string;
  dayStartHour: number;
}

/** The range as the business reads it: its time zone and the hour its days start (shift-windows settings). */
export async function resolveRange(ctx: AppContext, from: string, to: string): Promise<ReportRange> {
  const general = await getGeneralConfig(ctx.db.db, ctx.config.BUSINESS_TIMEZONE);
  return { from, to, timezone: general.timezone, dayStartHour: dayStartHour(general.shiftStartHour, general.shiftEndHour) };
}

/**
 * Every owner report for the business days `from`..`to`, read from the summary tables only
 *: a range is a slot interval, so each report is one indexed range scan of at
 * most 24 rows a day per key, whatever the number of orders behind them.
 */
export async function ownerReports(db: Trx, range: ReportRange): Promise<ReportsResponse> {
  const { first, end } = slotRange(range.from, range.to, range.dayStartHour);
  const inRange = sql`slot >= ${first} AND slot < ${end}`;
  // Detail tables: the edge days' hour rows and the day rows between them, one index range each.
  const ranges = detailSlotRanges(range.from, range.to, range.dayStartHour);
  const detail = (table: string, columns: string[]) =>
    sql`(${sql.join(
      ranges.map(
        ([lo, hi]) => sql`SELECT ${sql.join(columns.map((c) => sql.ref(c)))} FROM ${sql.table(table)} WHERE slot >= ${lo} AND slot < ${hi}`,
      ),
      sql` UNION ALL `,
    )}) AS d`;
  // Sales: the database adds up by hour of day, and by calendar day split at the day's start hour.
  const hourRows = (
    await sql<Record<string, Numeric>>`
      SELECT slot % 100 AS hour, SUM(orders) AS orders, SUM(items) AS items, SUM(subtotal) AS subtotal, SUM(discount) AS discount,
        SUM(comp) AS comp, SUM(tips) AS tips, SUM(total) AS total
      FROM report_sales WHERE ${inRange} GROUP BY 1`.execute(db)
  ).rows;
  const dayRows = (
    await sql<Record<string, Numeric>>`
      SELECT slot / 100 AS day, CASE WHEN slot % 100 < ${range.dayStartHour} THEN 0 ELSE 1 END AS late,
        SUM(orders) AS orders, SUM(tips) AS tips, SUM(total) AS total
      FROM report_sales WHERE ${inRange} GROUP BY 1, 2`.execute(db)
  ).rows;
  const figures = (r: Record<string, Numeric>) => ({ orders: n(r.orders), total: n(r.total), tips: n(r.tips) });
  const byHour = foldHours(
    hourRows.map((r) => ({ hour: n(r.hour), ...figures(r) })),
    range.dayStartHour,
  ).map(branded);
  // A day's rows stand for one slot each: hour 0 before the day's start, the start hour after it.
  const byWeekday = foldWeekdays(
    dayRows.map((r) => ({ slot: n(r.day) * 100 + (n(r.late) ? range.dayStartHour : 0), ...figures(r) })),
    range.dayStartHour,
  ).map(branded);
  const sum = (column: string) => hourRows.reduce((acc, r) => acc + n(r[column]), 0);
  const totals = { orders: sum('orders'), total: cents(sum('total')), tips: cents(sum('tips')) };

  const products = (
    await sql<{ product_id: string; product_name: string; category: string; units: Numeric; amount: Numeric }>`
      SELECT product_id, MAX(product_name) AS product_name, category, SUM(units) AS units, SUM(amount) AS amount
      FROM ${detail('report_products', ['product_id', 'product_name', 'category', 'units', 'amount'])} GROUP BY product_id, category`.execute(
      db,
    )
  ).rows
    .map((r) => ({
      productId: r.product_id,
      productName: r.product_name,
      category: r.category,
      units: n(r.units),
      amount: toCents(r.amount),
    }))
    .sort((a, b) => b.amount - a.amount || b.units - a.units || a.productName.localeCompare(b.productName, 'es'));
  const categories = new Map<string, { category: string; units: number; amount: Cents }>();
  for (const p of products) {
    const c = categories.get(p.category) ?? { category: p.category, units: 0, amount: ZERO };
    c.units += p.units;
    c.amount = addCents(c.amount, p.amount);
    categories.set(p.category, c);
  }

  const waiters = (
    await sql<{ waiter_key: string; waiter_name: string; orders: Numeric; total: Numeric; tips: Numeric }>`
      SELECT waiter_key, MAX(waiter_name) AS waiter_name, SUM(orders) AS orders, SUM(total) AS total, SUM(tips) AS tips
      FROM ${detail('report_waiters', ['waiter_key', 'waiter_name', 'orders', 'total', 'tips'])} GROUP BY waiter_key`.execute(db)
  ).rows
    .map((r) => ({
      waiterId: r.waiter_key || null,
      waiterName: r.waiter_name || 'Sin mesero',
      tickets: n(r.orders),
      sales: toCents(r.total),
      averageTicket: cents(averageTicket(n(r.total), n(r.orders))),
      tips: toCents(r.tips),
    }))
    .sort((a, b) => b.sales - a.sales || a.waiterName.localeCompare(b.waiterName, 'es'));

  const methods = (
    await sql<{ method: string; payments: Numeric; amount: Numeric; tips: Numeric }>`
      SELECT method, SUM(payments) AS payments, SUM(amount) AS amount, SUM(tips) AS tips
      FROM ${detail('report_methods', ['method', 'payments', 'amount', 'tips'])} GROUP BY method`.execute(db)
  ).rows
    .map((r) => ({ method: r.method, payments: n(r.payments), amount: toCents(r.amount), tips: toCents(r.tips) }))
    .sort(byAmount);

  return {
    from: range.from,
    to: range.to,
    timezone: range.timezone,
    dayStartHour: range.dayStartHour,
    totals: {
      orders: totals.orders,
      items: sum('items'),
      subtotal: cents(sum('subtotal')),
      discount: cents(sum('discount')),
      comp: cents(sum('comp')),
      tips: totals.tips,
      total: totals.total,
      averageTicket: cents(averageTicket(totals.total, totals.orders)),
    },
    byHour,
    byWeekday,
    products,
    categories: [...categories.values()].sort(byAmount),
    waiters,
    losses: await losses(db, detail('report_losses', ['kind', 'reason', 'user_key', 'user_name', 'count', 'units', 'amount'])),
    methods,
    taxes: await taxes(db, inRange),
  };
}

/** The period's taxes from the tax rollup (the frozen breakdowns added at each close), by treatment and IEPS rate. */
async function taxes(db: Trx, inRange: ReturnType<typeof sql>): Promise<TaxBreakdown> {
  const { rows } = await sql<{ treatment: string; ieps_rate_bp: string; base: Numeric; tax: Numeric; ieps: Numeric; amount: Numeric }>`
    SELECT treatment, ieps_rate_bp, SUM(base) AS base, SUM(tax) AS tax, SUM(ieps) AS ieps, SUM(amount) AS amount
    FROM report_taxes WHERE ${inRange} GROUP BY treatment, ieps_rate_bp`.execute(db);
  const groups: TaxGroup[] = rows
    .filter((r) => isTaxTreatment(r.treatment) && n(r.amount) > 0)
    .map((r): TaxGroup => {
      const treatment = r.treatment as TaxGroup['treatment'];
      const iepsRateBp = Number(r.ieps_rate_bp);
      const group = { treatment, rateBp: IVA_RATE_BP[treatment], base: toCents(r.base), tax: toCents(r.tax), amount: toCents(r.amount) };
      return iepsRateBp > 0 ? { ...group, iepsRateBp, ieps: toCents(r.ieps) } : group;
    })
    .sort((a, b) => TAX_ORDER.indexOf(a.treatment) - TAX_ORDER.indexOf(b.treatment) || (a.iepsRateBp ?? 0) - (b.iepsRateBp ?? 0));
  return breakdownOf(groups);
}
const TAX_ORDER: readonly string[] = TAX_TREATMENTS;

async function losses(db: Trx, from: ReturnType<typeof sql>): Promise<ReportsResponse['losses']> {
  const { rows } = await sql<{
    kind: ReportLossKind;
    reason: string;
    user_key: string;
    user_name: string;
    count: Numeric;
    units: Numeric;
    amount: Numeric;
  }>`
    SELECT kind, reason, user_key, MAX(user_name) AS user_name, SUM(count) AS count, SUM(units) AS units, SUM(amount) AS amount
    FROM ${from} GROUP BY kind, reason, user_key`.execute(db);
  const figures = (kind: ReportLossKind) => ({ kind, count: 0, units: 0, amount: ZERO });
  const totals = new Map(LOSS_ORDER.map((k) => [k, figures(k)]));
  const byReason = new Map<string, ReportsResponse['losses']['byReason'][number]>();
  const byUser = new Map<string, ReportsResponse['losses']['byUser'][number]>();
  for (const r of rows) {
    const add = <T extends { count: number; units: number; amount: Cents }>(into: T) => {
      into.count += n(r.count);
      into.units += n(r.units);
      into.amount = addCents(into.amount, toCents(r.amount));
    };
    add(totals.get(r.kind) ?? figures(r.kind));
    const reasonKey = `${r.kind}\u0000${r.reason}`;
    const reason = byReason.get(reasonKey) ?? { ...figures(r.kind), reason: r.reason || 'Sin motivo' };
    add(reason);
    byReason.set(reasonKey, reason);
    const userKey = `${r.kind}\u0000${r.user_key}`;
    const user = byUser.get(userKey) ?? { ...figures(r.kind), userId: r.user_key || null, userName: r.user_name || '—' };
    add(user);
    byUser.set(userKey, user);
  }
  const order = (a: { kind: ReportLossKind; amount: number; count: number }, b: { kind: ReportLossKind; amount: number; count: number }) =>
    LOSS_ORDER.indexOf(a.kind) - LOSS_ORDER.indexOf(b.kind) || b.amount - a.amount || b.count - a.count;
  return { totals: [...totals.values()], byReason: [...byReason.values()].sort(order), byUser: [...byUser.values()].sort(order) };
}
