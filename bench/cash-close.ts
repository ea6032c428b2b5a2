/**
 * Cash-close benchmark (QUALITY.md: shift summary over 1,000,000 paid orders, p50 ≤ 50 ms).
 * Fills a fresh SQLite database (and PostgreSQL when TEST_DATABASE_URL is set) with paid
 * orders spread over two years, their payments and ~2 items each, then times the summary
 * query function the route uses, on 20 different shifts. Run alone: `npx tsx bench/cash-close.ts`
 * (BENCH_ORDERS=… for a smaller fill); `runCashCloseBench()` is what `npm run bench` calls.
 */
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { sql, type SqlBool } from 'kysely';
import { addDays, cents, flatBreakdown, zonedToUtc } from '@comanda/domain';
import { paidTaxes } from '../apps/server/src/model/reports/paid-taxes.ts';
import { createTestDatabase, type TestDbKind } from '../apps/server/src/testing/databases.ts';
import { connect } from '../apps/server/src/db/connect.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { reportDataSteps } from '../apps/server/src/model/reports/rollup-backfill.ts';
import { shiftSummary } from '../apps/server/src/features/cash-close/summary.query.ts';
import { shiftStatistics } from '../apps/server/src/features/cash-close/statistics.query.ts';
import { outsideShiftIntervals, shiftInterval } from '../apps/server/src/model/shift-windows.ts';
import { listTickets } from '../apps/server/src/features/tickets/tickets.query.ts';
import { paidTickets } from '../apps/server/src/model/tickets/paid-tickets.ts';
import { parseTicketSearch } from '../apps/server/src/features/tickets/ticket-search.ts';
import { benchDatabaseKinds, mulberry32, timeRuns } from './lib.ts';

const TZ = 'America/Mexico_City';
const SHIFT = { timezone: TZ, shiftStartHour: 17, shiftEndHour: 3 };
const FIRST_DAY = '2023-01-01';
const DAYS = 730;
const BATCH = 20_000;
const PRODUCTS: [string, number][] = [
  ['Tacos al pastor (3)', 9_500],
  ['Hamburguesa de la casa', 18_900],
  ['Cerveza clara', 5_500],
  ['Michelada', 8_500],
  ['Margarita', 11_000],
  ['Shot de mezcal', 7_000],
  ['Guacamole con totopos', 12_900],
  ['Flan napolitano', 6_500],
];
const WAITERS = ['Mario Mesero', 'Lucía Mesera', 'Pedro Mesero', 'Sofía Mesera'];
const METHODS = ['efectivo', 'tarjeta', 'transferencia'] as const;
const TIPS = [0, 1_000, 1_500, 2_000];

export interface CashCloseBenchResult {
  database: TestDbKind;
  orders: number;
  items: number;
  fillSeconds: number;
  summary: { p50: number; p95: number };
  statistics: { p50: number; p95: number };
  ticketsFirstPage: { p50: number; p95: number };
  /** A name search nothing matches: one index lookup since migration 0006. */
  ticketsSearchMiss: { p50: number; p95: number };
  /** Same run, the query it replaced (LIKE over every paid order's names): the baseline. */
  ticketsSearchMissScan: { p50: number; p95: number };
  /** A ticket number nothing matches (primary-key range). */
  ticketsFolioMiss: { p50: number; p95: number };
  /** A name on most tickets ('mesero'): more matches than the index cap, walked newest first. */
  ticketsSearchDense: { p50: number; p95: number };
}

interface Batch {
  orders: (string | number)[][];
  payments: (string | number)[][];
  items: (string | number)[][];
}

/** Orders `from`..`to`-1: 90 % inside the night shift, the rest during the day. */
function makeBatch(from: number, to: number, total: number, midnights: number[]): Batch {
  const rand = mulberry32(from + 1);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const batch: Batch = { orders: [], payments: [], items: [] };
  for (let i = from; i < to; i++) {
    const day = Math.floor((i * DAYS) / total);
    const minute = rand() < 0.9 ? 17 * 60 + Math.floor(rand() * 600) : 3 * 60 + Math.floor(rand() * 840);
    const completed = midnights[day]! + minute * 60_000 + Math.floor(rand() * 60_000);
    const id = `${completed.toString(16).padStart(12, '0')}-${i.toString(16).padStart(8, '0')}`;
    let subtotal = 0;
    const lines = 1 + Math.floor(rand() * 3);
    for (let l = 0; l < lines; l++) {
      const [name, price] = pick(PRODUCTS);
      const quantity = 1 + Math.floor(rand() * 3);
      const deleted = rand() < 0.03 ? 1 : 0;
      if (!deleted) subtotal += price * quantity;
      batch.items.push([`${id}-${l}`, id, `p-${name}`, name, price, quantity, deleted, completed - 3_000_000]);
    }
    const tipBps = pick(TIPS);
    const tip = Math.round((subtotal * tipBps) / 10_000);
    const method = pick(METHODS);
    const waiter = Math.floor(rand() * WAITERS.length);
    const table = Math.floor(rand() * 11);
    batch.orders.push([
      id,
      `t-${table}`,
      table,
      `w-${waiter}`,
      WAITERS[waiter]!,
      method,
      subtotal,
      tip,
      subtotal + tip,
      completed - 3_600_000,
      completed,
      // The breakdown each close freezes (what it charged, at 16 %): the cash close adds them up.
      JSON.stringify(flatBreakdown(cents(subtotal), 'iva16', false)),
    ]);
    batch.payments.push([`pay-${id}`, id, method, subtotal + tip, tip, tipBps, completed]);
  }
  return batch;
}

const ORDER_COLS =
  'id, table_id, table_number, waiter_id, waiter_name, payment_method, subtotal, tip, total, created_at, completed_at, tax_breakdown';
const ITEM_COLS = 'id, order_id, product_id, product_name, product_price, quantity, is_deleted, created_at';
const PAY_COLS = 'id, order_id, method, amount, tip_amount, tip_bps, created_at';

function fillSqlite(file: string, total: number, midnights: number[]): void {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF'); // loading only; the timed connection uses the server's settings
  const order = db.prepare(
    `INSERT INTO orders (${ORDER_COLS}, status, people_count, version, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?, 'pagado', 2, 3, ?)`,
  );
  const item = db.prepare(
    `INSERT INTO order_items (${ITEM_COLS}, status, category, station, updated_at) VALUES (?,?,?,?,?,?,?,?, 'entregado', 'Comida', 'cocina', ?)`,
  );
  const pay = db.prepare(`INSERT INTO payments (${PAY_COLS}) VALUES (?,?,?,?,?,?,?)`);
  const load = db.transaction((b: Batch) => {
    for (const o of b.orders) order.run(...o, o[10]!);
    for (const it of b.items) item.run(...it, it[7]!);
    for (const p of b.payments) pay.run(...p);
  });
  for (let from = 0; from < total; from += BATCH) load(makeBatch(from, Math.min(total, from + BATCH), total, midnights));
  db.exec('ANALYZE');
  db.close();
}

async function fillPostgres(url: string, total: number, midnights: number[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const columns = (rows: (string | number)[][], n: number) => Array.from({ length: n }, (_, c) => rows.map((r) => r[c]));
  try {
    for (let from = 0; from < total; from += BATCH) {
      const b = makeBatch(from, Math.min(total, from + BATCH), total, midnights);
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO orders (${ORDER_COLS}, status, people_count, version, updated_at)
         SELECT a,b,d,e,f,g,h,i,j,k,c,x, 'pagado', 2, 3, c FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::text[]) AS t(a,b,d,e,f,g,h,i,j,k,c,x)`,
        columns(b.orders, 12),
      );
      await client.query(
        `INSERT INTO order_items (${ITEM_COLS}, status, category, station, updated_at)
         SELECT *, 'entregado', 'Comida', 'cocina', c FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::int[], $7::int[], $8::bigint[]) AS t(a,b,d,e,f,g,h,c)`,
        columns(b.items, 8),
      );
      await client.query(
        `INSERT INTO payments (${PAY_COLS}) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::int[], $7::bigint[])`,
        columns(b.payments, 7),
      );
      await client.query('COMMIT');
    }
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}

/** Migrates an empty database at `url` and loads `total` paid orders into it; returns seconds taken. */
export async function fillCashCloseDatabase(url: string, total: number): Promise<number> {
  const midnights = Array.from({ length: DAYS }, (_, d) => zonedToUtc(addDays(FIRST_DAY, d), 0, 0, TZ).getTime());
  const setup = connect(url);
  await migrateToLatest(setup, reportDataSteps);
  await setup.close();
  const t0 = performance.now();
  if (url.startsWith('sqlite:')) fillSqlite(url.slice('sqlite:'.length), total, midnights);
  else await fillPostgres(url, total, midnights);
  return Math.round((performance.now() - t0) / 100) / 10;
}

async function benchOne(kind: TestDbKind, total: number, runs: number, log: (line: string) => void): Promise<CashCloseBenchResult> {
  const database = await createTestDatabase(kind);
  try {
    const fillSeconds = await fillCashCloseDatabase(database.url, total);
    log(`  ${kind}: ${total.toLocaleString('en-US')} paid orders (+ payments, ~2 items each) loaded in ${fillSeconds} s`);

    const { db, close } = connect(database.url);
    try {
      const rand = mulberry32(42);
      const dates = Array.from({ length: runs }, () => addDays(FIRST_DAY, 1 + Math.floor(rand() * (DAYS - 2))));
      const windowOf = (run: number) => shiftInterval(dates[Math.max(0, run)]!, SHIFT);
      const sample = await shiftSummary(db, windowOf(0));
      const summary = await timeRuns(runs, (run) => shiftSummary(db, windowOf(run)));
      const statistics = await timeRuns(runs, (run) => shiftStatistics(db, windowOf(run), TZ));
      // The cash close's IVA by rate: the shift's frozen breakdowns added up.
      const taxes = await timeRuns(runs, (run) => paidTaxes(db, windowOf(run)));
      const ticketsFirstPage = await timeRuns(runs, () =>
        listTickets(db, { kind, search: null, cursor: null, limit: 30, timezone: TZ, today: FIRST_DAY }),
      );
      const miss = parseTicketSearch('sin coincidencias');
      const page = (search: ReturnType<typeof parseTicketSearch>) =>
        listTickets(db, { kind, search, cursor: null, limit: 30, timezone: TZ, today: FIRST_DAY });
      const ticketsSearchMiss = await timeRuns(runs, () => page(miss));
      const ticketsSearchMissScan = await timeRuns(3, () =>
        paidTickets(db)
          .where((eb) =>
            eb.or([
              sql<SqlBool>`lower(o.table_name) like ${'%sin coincidencias%'} escape '\\'`,
              sql<SqlBool>`lower(o.waiter_name) like ${'%sin coincidencias%'} escape '\\'`,
            ]),
          )
          .orderBy('o.completed_at', 'desc')
          .orderBy('o.id', 'desc')
          .limit(31)
          .execute(),
      );
      const ticketsFolioMiss = await timeRuns(runs, () => page(parseTicketSearch('#fffffe')));
      const ticketsSearchDense = await timeRuns(runs, () => page(parseTicketSearch('mesero')));
      const items = Number((await db.selectFrom('order_items').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      log(
        `  ${kind}: one shift holds ${sample.totalOrders} orders (outside-shift gaps: ${outsideShiftIntervals(dates[0]!, SHIFT).length})`,
      );
      log(`  ${kind}: shift summary      p50 ${summary.p50} ms   p95 ${summary.p95} ms   (target p50 ≤ 50 ms)`);
      log(`  ${kind}: shift statistics   p50 ${statistics.p50} ms   p95 ${statistics.p95} ms`);
      log(`  ${kind}: shift taxes (IVA)  p50 ${taxes.p50} ms   p95 ${taxes.p95} ms   (summary + taxes: target p50 ≤ 50 ms)`);
      log(`  ${kind}: tickets first page p50 ${ticketsFirstPage.p50} ms   p95 ${ticketsFirstPage.p95} ms`);
      log(
        `  ${kind}: tickets search, no match (index)           p50 ${ticketsSearchMiss.p50} ms   p95 ${ticketsSearchMiss.p95} ms   (target p50 ≤ 20 ms)`,
      );
      log(`  ${kind}: same, the full scan it replaced (3 runs)    p50 ${ticketsSearchMissScan.p50} ms`);
      log(`  ${kind}: tickets search, ticket number with no match p50 ${ticketsFolioMiss.p50} ms   p95 ${ticketsFolioMiss.p95} ms`);
      log(`  ${kind}: tickets search, 'mesero' (most tickets)     p50 ${ticketsSearchDense.p50} ms   p95 ${ticketsSearchDense.p95} ms`);
      return {
        database: kind,
        orders: total,
        items,
        fillSeconds,
        summary,
        statistics,
        ticketsFirstPage,
        ticketsSearchMiss,
        ticketsSearchMissScan,
        ticketsFolioMiss,
        ticketsSearchDense,
      };
    } finally {
      await close();
    }
  } finally {
    await database.drop();
  }
}

export async function runCashCloseBench(
  opts: { orders?: number; runs?: number; log?: (line: string) => void } = {},
): Promise<CashCloseBenchResult[]> {
  const total = opts.orders ?? Number(process.env.BENCH_ORDERS ?? 1_000_000);
  const runs = opts.runs ?? 20;
  const log = opts.log ?? ((line: string) => console.log(line));
  log(`cash close: shift summary over ${total.toLocaleString('en-US')} paid orders, ${runs} runs on different shifts`);
  const results: CashCloseBenchResult[] = [];
  for (const kind of benchDatabaseKinds()) results.push(await benchOne(kind, total, runs, log));
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runCashCloseBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
