import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Figure } from './lib.ts';

/**
 * No benchmark runs in `npm test`; this short smoke run of each one's core does (tiny sizes,
 * about a second of load each, SQLite only), so the benchmarks cannot rot: each must still
 * start its real server, drive it and print figures. The numbers themselves are not judged.
 * Not here: `web` (it needs a production `vite build` and Chromium; e2e covers both).
 */
const TINY: Record<string, string> = {
  BENCH_SECONDS: '1',
  BENCH_WARMUP: '0',
  BENCH_CLIENTS: '3',
  BENCH_RATE: '20',
  BENCH_CONCURRENCY: '2',
  BENCH_OPEN_ORDERS: '3',
  BENCH_LIVE_ORDERS: '3',
  BENCH_PAIRS: '1',
  BENCH_PAIR_SECONDS: '1',
  BENCH_PAIR_RAW_SECONDS: '0.5',
};
const saved: Record<string, string | undefined> = {};

beforeAll(() => {
  // SQLite only, in CI too (CI=true would otherwise require PostgreSQL).
  for (const [key, value] of Object.entries({ ...TINY, TEST_DATABASE_URL: '', CI: '' })) {
    saved[key] = process.env[key];
    if (value) process.env[key] = value;
    else delete process.env[key];
  }
});
afterAll(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

const figures = (list: Figure[]) => {
  expect(list.length).toBeGreaterThan(0);
  for (const f of list) expect(f.value, f.what).toMatch(/\d/);
};
const quiet = () => {};

describe('benchmarks, smoke run', { timeout: 120_000 }, () => {
  it('live latency measures Comanda and the bare ws baseline', async () => {
    const { runLiveLatency } = await import('./live-latency.ts'); // reads BENCH_* when loaded
    figures(await runLiveLatency(quiet));
  });

  it('write throughput counts HTTP adds, raw commits, the bare HTTP server committing the same load, and adds and raw commits in turn', async () => {
    const { runWriteThroughput } = await import('./write-throughput.ts');
    const list = await runWriteThroughput(quiet);
    figures(list);
    const adds = list.find((f) => f.what === 'item adds/s via HTTP, SQLite');
    expect(Number.parseFloat(adds?.value ?? '0')).toBeGreaterThan(0);
    const floor = list.find((f) => f.what === 'bare HTTP commits/s, SQLite, same run');
    expect(Number.parseFloat(floor?.value ?? '0')).toBeGreaterThan(0);
    const paired = list.find((f) => f.what === 'share of raw commits, SQLite, 1 rounds in turn');
    expect(paired?.value).toMatch(/^median \d+\.\d%$/);
  });

  it('log pages reads the log the adds wrote and puts each page down to its table or index', async () => {
    const { logPages } = await import('./log-pages.ts');
    const r = await logPages(40, 20);
    expect(r.commits).toBeGreaterThan(0);
    expect(r.pages).toBeGreaterThanOrEqual(r.commits);
    const trees = r.byTree.map(([name]) => name);
    for (const written of ['order_items', 'idempotency_keys', 'audit_log']) expect(trees).toContain(written);
  });

  it('cash close times the summary and the ticket search over a small fill', async () => {
    const { runCashCloseBench } = await import('./cash-close.ts');
    const [sqlite] = await runCashCloseBench({ orders: 2_000, runs: 3, log: quiet });
    expect(sqlite?.orders).toBe(2_000);
    for (const timing of [sqlite!.summary, sqlite!.ticketsSearchMiss, sqlite!.ticketsSearchMissScan, sqlite!.ticketsSearchDense])
      expect(timing.p50).toBeGreaterThanOrEqual(0);
  });

  // About 10 s on a quiet machine (most of it starting the server); the limit leaves room for a loaded one.
  it('saturday night plays a few seconds of a tiny night against the real, pinned server', { timeout: 60_000 }, async () => {
    const { runNightOnce } = await import('./night.ts');
    const night = await runNightOnce({
      database: 'sqlite',
      speed: 60,
      seconds: 2,
      warmup: 1,
      waiters: 4,
      tables: 6,
      tabs: 2,
      occupancy: 0.5,
      pin: true,
      log: quiet,
    });
    expect(night.errors, night.errorSamples.join('\n')).toBe(0);
    expect(night.actions.find((a) => a.action === 'add item')?.count).toBeGreaterThan(0);
    // The boards patch their lines from the events (a read only for an event without them).
    expect(night.boardEvents.patched).toBeGreaterThan(0);
    expect(night.commits?.count).toBeGreaterThan(0);
    expect(Array.isArray(night.commits?.stalls)).toBe(true);
    for (const o of night.overTarget) {
      expect(o.ms).toBeGreaterThan(50);
      expect(Math.abs(o.at - Date.now())).toBeLessThan(600_000);
    }
    // The warm-up's samples are tallied apart, not counted in the window.
    expect(night.warmup.samples).toBeGreaterThan(0);
    for (const o of night.warmup.overTarget) expect(o.ms).toBeGreaterThan(50);
    expect(night.live.expected).toBeGreaterThan(0);
    expect(night.peakRssMb[0]).toBeGreaterThan(0);
    // The comandas reached the bar's printers (emulators on the LAN side, not in the server).
    expect(night.printedTickets).toBeGreaterThan(0);
  });

  it('lays a slow sample over the database stalls it overlapped, and only those', async () => {
    const { stallUnder } = await import('./night.ts');
    const stalls: [number, number][] = [
      [1_000, 30],
      [1_100, 90],
      [2_000, 25],
    ];
    expect(stallUnder(1_050, 60, stalls)).toBe(90); // ends inside the second, after the first ended
    expect(stallUnder(1_020, 200, stalls)).toBe(90); // overlaps both: the longer
    expect(stallUnder(1_150, 5, stalls)).toBe(90); // inside the second
    expect(stallUnder(1_150, 5, [])).toBeNull();
    expect(stallUnder(1_300, 600, stalls)).toBeNull(); // between them
    expect(stallUnder(2_025, 10, stalls)).toBeNull(); // starts as the third ends
  });

  it('reports times every owner report over a small year of summary rows', async () => {
    const { runReportsBench } = await import('./reports.ts');
    const [sqlite] = await runReportsBench({ orders: 3_000, runs: 3, log: quiet });
    expect(sqlite?.orders).toBe(3_000);
    expect(sqlite!.summaryRows).toBeGreaterThan(0);
    for (const timing of [sqlite!.year, sqlite!.month, sqlite!.week, sqlite!.xlsxYear]) expect(timing.p50).toBeGreaterThan(0);
  });

  it('add vs order size compares a bigger order with small ones', async () => {
    const { runAddVsSize } = await import('./add-vs-size.ts');
    const [sqlite] = await runAddVsSize({ big: 20, small: 2, rounds: 4, log: quiet });
    expect(sqlite?.bigP50).toBeGreaterThan(0);
    expect(sqlite?.smallP50).toBeGreaterThan(0);
    expect(sqlite!.bigBytes).toBeGreaterThan(sqlite!.smallBytes);
  });
});
