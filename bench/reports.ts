/**
 * Owner reports benchmark (issue #15 item 7: every report over a year of a busy bar — 1,000,000
 * paid orders, 5,000,000 items — in ≤ 200 ms p50 on both databases).
 * The reports read only the summary tables (migration 0014), so this fills those: a year of
 * orders is generated in memory (deterministic; ~5 lines each, 60 products, 12 waiters, mixed
 * payments, voids, comps, discounts, cancellations), folded into summary rows by the same code
 * the write path uses (RollupSet, one business-local hour per slot), and written once. Then the
 * route's report function is timed over a year, a month and a week, and the .xlsx export over a
 * year. Run alone: `npx tsx bench/reports.ts` (BENCH_ORDERS=… for a smaller year).
 */
import { pathToFileURL } from 'node:url';
import { addDays, cents, flatBreakdown, slotAt, zonedToUtc } from '@comanda/domain';
import { createTestDatabase, type TestDbKind } from '../apps/server/src/testing/databases.ts';
import { connect } from '../apps/server/src/db/connect.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { reportDataSteps } from '../apps/server/src/model/reports/rollup-backfill.ts';
import { addRollup, emptyRollups, upsertRollups, withDayRows, type RollupSet } from '../apps/server/src/model/reports/rollup-set.ts';
import { ownerReports, type ReportRange } from '../apps/server/src/features/reports/reports.query.ts';
import { addTaxRollups } from '../apps/server/src/model/reports/rollups.ts';
import { reportSheets } from '../apps/server/src/features/reports/report-sheets.ts';
import { reportsXlsx } from '../apps/server/src/features/reports/export-xlsx.ts';
import { benchDatabaseKinds, mulberry32, timeRuns, type Timing } from './lib.ts';

const TZ = 'America/Mexico_City';
const FIRST_DAY = '2025-01-01';
const DAYS = 365;
const CATEGORIES = ['Entrada', 'Comida', 'Postre', 'Bebida', 'Botella', 'Shot'];
const PRODUCTS = Array.from({ length: 60 }, (_, i) => ({
  id: `p-${i}`,
  name: `Producto ${i + 1}`,
  category: CATEGORIES[i % CATEGORIES.length]!,
  price: 4_500 + ((i * 2_750) % 40_000),
}));
const WAITERS = Array.from({ length: 12 }, (_, i) => ({ id: `w-${i}`, name: `Mesero ${i + 1}` }));
const METHODS = ['efectivo', 'tarjeta', 'transferencia'];
const REASONS = ['Error de captura', 'Cliente cambió de opinión', 'Producto en mal estado', 'Tardó demasiado', 'Otro'];
const TIPS = [0, 1_000, 1_500, 2_000];

export interface ReportsBenchResult {
  database: TestDbKind;
  orders: number;
  items: number;
  summaryRows: number;
  fillSeconds: number;
  year: Timing;
  month: Timing;
  week: Timing;
  xlsxYear: Timing;
}

/** A year of a busy bar folded into summary rows, as the closes would have added them. */
export function yearOfOrders(total: number): { set: RollupSet; items: number } {
  const rand = mulberry32(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const midnights = Array.from({ length: DAYS }, (_, d) => zonedToUtc(addDays(FIRST_DAY, d), 0, 0, TZ).getTime());
  const slots = new Map<number, number>();
  const slotOf = (at: number) => {
    const quarter = Math.floor(at / 900_000);
    let slot = slots.get(quarter);
    if (slot === undefined) slots.set(quarter, (slot = slotAt(quarter * 900_000, TZ)));
    return slot;
  };
  const set = emptyRollups();
  let items = 0;
  for (let i = 0; i < total; i++) {
    const day = Math.floor((i * DAYS) / total);
    const minute = rand() < 0.9 ? 17 * 60 + Math.floor(rand() * 600) : 13 * 60 + Math.floor(rand() * 240);
    const slot = slotOf(midnights[day]! + minute * 60_000);
    const waiter = pick(WAITERS);
    let subtotal = 0;
    let units = 0;
    const lines = 3 + Math.floor(rand() * 5);
    items += lines;
    for (let l = 0; l < lines; l++) {
      const p = pick(PRODUCTS);
      const quantity = 1 + Math.floor(rand() * 2);
      subtotal += p.price * quantity;
      units += quantity;
      addRollup(set, 'report_products', {
        slot,
        product_id: p.id,
        product_name: p.name,
        category: p.category,
        units: quantity,
        amount: p.price * quantity,
      });
    }
    const loss = rand();
    let comp = 0;
    let discount = 0;
    if (loss < 0.02) {
      const p = pick(PRODUCTS);
      addRollup(set, 'report_losses', {
        slot,
        kind: 'void',
        reason: pick(REASONS),
        user_key: waiter.id,
        user_name: waiter.name,
        count: 1,
        units: 1,
        amount: p.price,
      });
    } else if (loss < 0.03) {
      comp = Math.min(subtotal, 5_500);
      addRollup(set, 'report_losses', {
        slot,
        kind: 'comp',
        reason: 'Cortesía de la casa',
        user_key: waiter.id,
        user_name: waiter.name,
        count: 1,
        units: 1,
        amount: comp,
      });
    } else if (loss < 0.04) {
      discount = Math.round(subtotal / 10);
      addRollup(set, 'report_losses', {
        slot,
        kind: 'discount',
        reason: 'Cliente frecuente',
        user_key: waiter.id,
        user_name: waiter.name,
        count: 1,
        units: 0,
        amount: discount,
      });
    } else if (loss < 0.042) {
      addRollup(set, 'report_losses', {
        slot,
        kind: 'cancel',
        reason: pick(REASONS),
        user_key: 'admin',
        user_name: 'Ana Administradora',
        count: 1,
        units,
        amount: subtotal,
      });
    }
    const owed = subtotal - comp - discount;
    const tip = Math.round((owed * pick(TIPS)) / 10_000);
    const orderTotal = owed + tip;
    addRollup(set, 'report_sales', { slot, orders: 1, items: units, subtotal, discount, comp, tips: tip, total: orderTotal });
    // Each check's frozen taxes, as its close adds them: most at 16 %, some drinks' checks at 8 %.
    addTaxRollups(set, slot, flatBreakdown(cents(owed), rand() < 0.3 ? 'iva8' : 'iva16', false));
    addRollup(set, 'report_waiters', { slot, waiter_key: waiter.id, waiter_name: waiter.name, orders: 1, total: orderTotal, tips: tip });
    if (rand() < 0.2) {
      const half = Math.floor(orderTotal / 2);
      addRollup(set, 'report_methods', { slot, method: 'efectivo', payments: 1, amount: half, tips: 0 });
      addRollup(set, 'report_methods', { slot, method: pick(METHODS.slice(1)), payments: 1, amount: orderTotal - half, tips: tip });
    } else addRollup(set, 'report_methods', { slot, method: pick(METHODS), payments: 1, amount: orderTotal, tips: tip });
  }
  return { set: withDayRows(set), items };
}

async function benchOne(kind: TestDbKind, total: number, runs: number, log: (l: string) => void): Promise<ReportsBenchResult> {
  const database = await createTestDatabase(kind);
  const handle = connect(database.url);
  try {
    await migrateToLatest(handle, reportDataSteps);
    const t0 = performance.now();
    const { set, items } = yearOfOrders(total);
    await handle.db.transaction().execute((trx) => upsertRollups(trx, set));
    const fillSeconds = Math.round((performance.now() - t0) / 100) / 10;
    const summaryRows = Object.values(set).reduce((acc, rows) => acc + rows.size, 0);
    log(
      `  ${kind}: ${total.toLocaleString('en-US')} paid orders, ${items.toLocaleString('en-US')} items → ${summaryRows.toLocaleString('en-US')} summary rows, generated and written in ${fillSeconds} s`,
    );
    const range = (from: string, days: number): ReportRange => ({ from, to: addDays(from, days - 1), timezone: TZ, dayStartHour: 3 });
    const rand = mulberry32(42);
    const starts = Array.from({ length: runs + 1 }, () => Math.floor(rand() * (DAYS - 31)));
    const year = await timeRuns(runs, () => ownerReports(handle.db, range(FIRST_DAY, DAYS)));
    const month = await timeRuns(runs, (run) => ownerReports(handle.db, range(addDays(FIRST_DAY, starts[run + 1]!), 30)));
    const week = await timeRuns(runs, (run) => ownerReports(handle.db, range(addDays(FIRST_DAY, starts[run + 1]!), 7)));
    const sample = await ownerReports(handle.db, range(FIRST_DAY, DAYS));
    const xlsxYear = await timeRuns(Math.max(3, Math.floor(runs / 4)), async () => reportsXlsx(sample, reportSheets(sample)));
    log(`  ${kind}: the year holds ${sample.totals.orders.toLocaleString('en-US')} orders, ${sample.products.length} products`);
    log(`  ${kind}: every report, a year   p50 ${year.p50} ms   p95 ${year.p95} ms   (target p50 ≤ 200 ms)`);
    log(`  ${kind}: every report, a month  p50 ${month.p50} ms   p95 ${month.p95} ms`);
    log(`  ${kind}: every report, a week   p50 ${week.p50} ms   p95 ${week.p95} ms`);
    log(`  ${kind}: .xlsx of a year's reports (building the file) p50 ${xlsxYear.p50} ms   p95 ${xlsxYear.p95} ms`);
    return { database: kind, orders: total, items, summaryRows, fillSeconds, year, month, week, xlsxYear };
  } finally {
    await handle.close();
    await database.drop();
  }
}

export async function runReportsBench(
  opts: { orders?: number; runs?: number; log?: (line: string) => void } = {},
): Promise<ReportsBenchResult[]> {
  const total = opts.orders ?? Number(process.env.BENCH_ORDERS ?? 1_000_000);
  const runs = opts.runs ?? 20;
  const log = opts.log ?? ((line: string) => console.log(line));
  log(`reports: every owner report over a year of ${total.toLocaleString('en-US')} paid orders, ${runs} runs`);
  const results: ReportsBenchResult[] = [];
  for (const kind of benchDatabaseKinds()) results.push(await benchOne(kind, total, runs, log));
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runReportsBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
