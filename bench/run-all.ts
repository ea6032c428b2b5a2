/**
 * `npm run bench`: every benchmark of QUALITY.md, each printing its figures and its same-run
 * baseline, then one summary table (markdown, for docs/performance.md). Figures are printed,
 * never asserted. Choose some with arguments: `npm run bench -- live write cash web addsize night reports`.
 * Environment: TEST_DATABASE_URL adds PostgreSQL; BENCH_SECONDS, BENCH_CLIENTS, BENCH_RATE,
 * BENCH_CONCURRENCY, BENCH_TTI_RUNS, BENCH_ORDERS tune sizes; NIGHT_* the Saturday night (night.ts).
 */
import { loadavg } from 'node:os';
import { machine, type Figure } from './lib.ts';

/** The shift summary and the ticket search over a million paid orders (bench/cash-close.ts). */
async function runCashClose(log: (l: string) => void): Promise<Figure[]> {
  const { runCashCloseBench } = await import('./cash-close.ts');
  const results = await runCashCloseBench({ log });
  return results.flatMap((r) => [
    {
      benchmark: 'cash close',
      what: `shift summary over ${r.orders.toLocaleString('en-US')} paid orders, ${r.database}`,
      value: `p50 ${r.summary.p50} ms (p95 ${r.summary.p95})`,
      target: 'p50 ≤ 50 ms',
      met: r.summary.p50 <= 50,
    },
    {
      benchmark: 'ticket search',
      what: `a name nothing matches, ${r.orders.toLocaleString('en-US')} paid orders, ${r.database}`,
      value: `p50 ${r.ticketsSearchMiss.p50} ms (p95 ${r.ticketsSearchMiss.p95}; the old full scan, same run: p50 ${r.ticketsSearchMissScan.p50} ms)`,
      target: 'p50 ≤ 20 ms',
      met: r.ticketsSearchMiss.p50 <= 20,
    },
  ]);
}

/** Owner reports over a year of 1,000,000 paid orders (bench/reports.ts). */
async function runReports(log: (l: string) => void): Promise<Figure[]> {
  const { runReportsBench } = await import('./reports.ts');
  const results = await runReportsBench({ log });
  return results.flatMap((r) => [
    {
      benchmark: 'reports',
      what: `every owner report over a year (${r.orders.toLocaleString('en-US')} paid orders, ${r.items.toLocaleString('en-US')} items), ${r.database}`,
      value: `p50 ${r.year.p50} ms (p95 ${r.year.p95}; a month p50 ${r.month.p50} ms)`,
      target: 'p50 ≤ 200 ms',
      met: r.year.p50 <= 200,
    },
  ]);
}

/**
 * Each benchmark's module is loaded when it runs: the night's load generator then carries neither
 * Playwright nor the other benchmarks in its heap (with them its own GC pauses reached 100 ms, and a
 * pause there is counted as the server's latency).
 */
const BENCHES: Record<string, (log: (l: string) => void) => Promise<Figure[]>> = {
  live: async (log) => (await import('./live-latency.ts')).runLiveLatency(log),
  write: async (log) => (await import('./write-throughput.ts')).runWriteThroughput(log),
  cash: runCashClose,
  web: async (log) => (await import('./web.ts')).runWeb(log),
  addsize: async (log) => (await import('./add-vs-size.ts')).runAddVsSizeFigures(log),
  night: async (log) => (await import('./night.ts')).runNight(log),
  reports: runReports,
};

async function main(): Promise<void> {
  const picked = process.argv.slice(2).filter((a) => a in BENCHES);
  const names = picked.length ? picked : Object.keys(BENCHES);
  const log = (line: string) => console.log(line);
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
  log(`Comanda benchmarks — ${new Date().toISOString()} — ${machine()} — load average ${load}`);
  log(process.env.TEST_DATABASE_URL ? 'PostgreSQL included (TEST_DATABASE_URL)' : 'PostgreSQL not included (set TEST_DATABASE_URL)');
  const figures: Figure[] = [];
  let failed = false;
  for (const name of names) {
    log('');
    const started = performance.now();
    try {
      figures.push(...(await BENCHES[name]!(log)));
    } catch (error) {
      failed = true;
      log(`${name}: FAILED — ${error instanceof Error ? error.message : String(error)}`);
    }
    log(`(${name}: ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  log('');
  log(
    `Summary (load average at start ${load}; at end ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')})`,
  );
  log('');
  log('| benchmark | what | measured | target | met |');
  log('|---|---|---|---|---|');
  for (const f of figures)
    log(`| ${f.benchmark} | ${f.what} | ${f.value} | ${f.target} | ${f.met === null ? '—' : f.met ? 'yes' : '**no**'} |`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
