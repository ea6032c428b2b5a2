/**
 * Add latency against order size (issue 20, item 2): the p50 of one item add to an order of
 * ~500 lines against one of ~5 lines, same server, same run, adds interleaved one at a time
 * (no concurrency, so the figure is the cost of the add itself). Target: ratio ≤ 1.5×.
 * SQLite always; PostgreSQL when TEST_DATABASE_URL is set. Run alone: `npx tsx bench/add-vs-size.ts`.
 * BENCH_ADD_ROUNDS (100) timed adds per size.
 */
import { pathToFileURL } from 'node:url';
import { testDatabaseKinds } from '../apps/server/src/testing/databases.ts';
import { ANSWER_HEADERS, ANSWER_NAME, api, fmt, openOrders, percentile, withComanda, withFreshDatabase, type Figure } from './lib.ts';

export interface AddVsSizeOptions {
  /** Lines of the large order around the measurement (it starts at big − rounds/2). */
  big?: number;
  /** Lines of each small order around the measurement. */
  small?: number;
  /** Timed adds per size. */
  rounds?: number;
  log?: (line: string) => void;
}

export interface AddVsSizeResult {
  database: 'sqlite' | 'postgres';
  big: number;
  small: number;
  rounds: number;
  smallP50: number;
  bigP50: number;
  smallP90: number;
  bigP90: number;
  /** Bytes of the add's response body, last add of each size. */
  smallBytes: number;
  bigBytes: number;
  ratio: number;
}

async function measure(base: string, kind: 'sqlite' | 'postgres', big: number, small: number, rounds: number): Promise<AddVsSizeResult> {
  // Small orders rotate so each grows by ~small lines over the run: it stays "a small order".
  const smallOrders = Math.max(1, Math.ceil(rounds / Math.max(1, small)));
  const { waiter, orders, productId } = await openOrders(base, smallOrders + 1);
  const [bigOrder, ...smalls] = orders as [string, ...string[]];
  const add = async (orderId: string) => {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/orders/${orderId}/items`, {
      method: 'POST',
      headers: { cookie: waiter, 'content-type': 'application/json', ...ANSWER_HEADERS },
      body: JSON.stringify({ productId, quantity: 1 }),
    });
    const body = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`add: ${res.status} ${new TextDecoder().decode(body)}`);
    return { ms: performance.now() - t0, bytes: body.byteLength };
  };
  // Fill: the big order to big − rounds/2 lines, each small one to small − its share/2.
  const bigStart = Math.max(0, big - Math.floor(rounds / 2));
  const smallStart = Math.max(0, small - Math.ceil(rounds / smallOrders / 2));
  const fill: string[] = [...Array<string>(bigStart).fill(bigOrder), ...smalls.flatMap((o) => Array<string>(smallStart).fill(o))];
  for (let i = 0; i < fill.length; i += 8) await Promise.all(fill.slice(i, i + 8).map(add));
  // Warm-up, then interleaved timed adds.
  for (let i = 0; i < 5; i++) await api(base, waiter, 'GET', '/api/tables');
  const smallMs: number[] = [];
  const bigMs: number[] = [];
  let smallBytes = 0;
  let bigBytes = 0;
  for (let r = 0; r < rounds; r++) {
    const s = await add(smalls[r % smalls.length]!);
    const b = await add(bigOrder);
    smallMs.push(s.ms);
    bigMs.push(b.ms);
    smallBytes = s.bytes;
    bigBytes = b.bytes;
  }
  const smallP50 = percentile(smallMs, 50);
  const bigP50 = percentile(bigMs, 50);
  return {
    database: kind,
    big,
    small,
    rounds,
    smallP50,
    bigP50,
    smallP90: percentile(smallMs, 90),
    bigP90: percentile(bigMs, 90),
    smallBytes,
    bigBytes,
    ratio: bigP50 / smallP50,
  };
}

export async function runAddVsSize(opts: AddVsSizeOptions = {}): Promise<AddVsSizeResult[]> {
  const big = opts.big ?? 500;
  const small = opts.small ?? 5;
  const rounds = opts.rounds ?? Number(process.env.BENCH_ADD_ROUNDS ?? 100);
  const log = opts.log ?? ((line: string) => console.log(line));
  log(
    `add vs order size: p50 of one add to a ~${big}-line order vs ~${small}-line orders, ${rounds} interleaved adds each, ${ANSWER_NAME} answer`,
  );
  const results: AddVsSizeResult[] = [];
  for (const kind of testDatabaseKinds())
    results.push(await withFreshDatabase(kind, (database) => withComanda(database, (url) => measure(url, kind, big, small, rounds))));
  for (const r of results)
    log(
      `  ${r.database}: add p50 ${fmt(r.bigP50)} ms at ~${r.big} lines (p90 ${fmt(r.bigP90)}, response ${fmt(r.bigBytes / 1024)} KB) vs ${fmt(r.smallP50)} ms at ~${r.small} lines (p90 ${fmt(r.smallP90)}, ${fmt(r.smallBytes / 1024)} KB) → ${fmt(r.ratio, 2)}×   target ≤ 1.5×`,
    );
  return results;
}

/** For `npm run bench -- addsize`. */
export async function runAddVsSizeFigures(log: (l: string) => void = console.log): Promise<Figure[]> {
  const results = await runAddVsSize({ log });
  return results.map((r) => ({
    benchmark: 'add vs size',
    what: `add p50 at ~${r.big} lines / at ~${r.small} lines, ${r.database}`,
    value: `${fmt(r.bigP50)} / ${fmt(r.smallP50)} ms = ${fmt(r.ratio, 2)}× (response ${fmt(r.bigBytes / 1024)} KB vs ${fmt(r.smallBytes / 1024)} KB)`,
    target: '≤ 1.5×',
    met: r.ratio <= 1.5,
  }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAddVsSize().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
