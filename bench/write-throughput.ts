/**
 * Write throughput (QUALITY.md): item adds per second through the HTTP API with durable
 * commits — SQLite always, PostgreSQL when TEST_DATABASE_URL is set — against the raw commit
 * rate of small transactions on the same database, measured in the same run.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import pg from 'pg';
import {
  ANSWER_HEADERS,
  benchDatabaseKinds,
  ANSWER_NAME,
  fmt,
  freePort,
  itemAdd,
  openOrders,
  percentile,
  postgresCpuMs,
  spawnTs,
  withComanda,
  withFreshDatabase,
  type Figure,
} from './lib.ts';
import { leanPoster } from './lean-http-client.ts';
import { PG_COMMIT_TABLE, pgOneRowCommit, sqliteOneRowCommits } from './one-row-commit.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ORDERS = Number(process.env.BENCH_OPEN_ORDERS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
/** BENCH_KEYED=1: every add carries an Idempotency-Key, as the web's outbox sends it. */
const KEYED = process.env.BENCH_KEYED === '1';
/** BENCH_NEW_LINES=1: every add a new line (the plain case); by default a raise of a pending line (handed over on PostgreSQL). */
const NEW_LINES = process.env.BENCH_NEW_LINES === '1';
/**
 * BENCH_CLIENT: how the load generator posts. 'lean' (default): lean-http-client.ts, 0.06–0.12 ms
 * of CPU per request; 'http': node:http on kept-alive sockets, which the figures before 2026-12-03
 * 13:00 used (0.17–0.33 ms); 'fetch': Node's fetch, before 2026-11-27 (0.2–0.35 ms). The load
 * generator shares the two cores with the server and the database; a bar's phones cost them nothing.
 */
const CLIENT_NAME = process.env.BENCH_CLIENT === 'fetch' ? 'fetch' : process.env.BENCH_CLIENT === 'http' ? 'http' : 'lean';
/**
 * BENCH_PAIRS=N: after the usual figures, N rounds in turn on a fresh database and server: adds for
 * BENCH_PAIR_SECONDS (3), then, once the server is idle, raw commits for BENCH_PAIR_RAW_SECONDS
 * (1.5). On a machine whose speed drifts from one minute to the next, each round's ratio compares
 * figures taken seconds apart; the median of the rounds is the steadier share of raw.
 */
const PAIRS = Number(process.env.BENCH_PAIRS ?? 0);
const PAIR_SECONDS = Number(process.env.BENCH_PAIR_SECONDS ?? 3);
const PAIR_RAW_SECONDS = Number(process.env.BENCH_PAIR_RAW_SECONDS ?? 1.5);

interface HttpResult {
  adds: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server process's CPU time per counted add (its Prometheus process_cpu_seconds_total): steadier than adds/s on a shared machine. */
  cpuMsPerAdd: number | null;
  /** SQLite: transactions per COMMIT while counting (group commit), or null. */
  perCommit: number | null;
  /** SQLite: COMMITs per counted add, the groups' and the writes' committed alone (the print worker's), or null. */
  commitsPerAdd: number | null;
  /** SQLite: the event loop's time inside SQLite per counted add (statements and COMMITs), and the COMMITs' part, or null. */
  sqliteMsPerAdd: number | null;
  commitMsPerAdd: number | null;
  /** SQLite: pages its log took per counted add (the checkpoint thread's count; pages a group's members share count once), or null. */
  pagesPerAdd: number | null;
  /** The load generator's own CPU per request (it shares the machine with the server). */
  clientCpuMs: number;
  /** PostgreSQL: the CPU of all its processes per counted add (postgresCpuMs), or null. */
  pgCpuMsPerAdd: number | null;
}

/** Figures from the server's /metrics (loopback may read it): CPU seconds, SQLite's commit groups. */
interface ServerCounters {
  cpu: number | null;
  groups: number | null;
  grouped: number | null;
  alone: number | null;
  busy: number | null;
  commit: number | null;
  pages: number | null;
}
async function serverCounters(base: string): Promise<ServerCounters> {
  const res = await fetch(`${base}/metrics`).catch(() => null);
  const text = res?.ok ? await res.text() : '';
  const read = (name: string) => {
    const line = new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text);
    return line ? Number(line[1]) : null;
  };
  return {
    cpu: read('comanda_process_cpu_seconds_total'),
    groups: read('comanda_sqlite_commit_groups'),
    grouped: read('comanda_sqlite_grouped_transactions'),
    alone: read('comanda_sqlite_writes_alone'),
    busy: read('comanda_sqlite_busy_seconds'),
    commit: read('comanda_sqlite_commit_seconds'),
    pages: read('comanda_sqlite_checkpointed_pages'),
  };
}

/** One POST of the load: an add to `orderId`, with its headers; the answer's status. */
type Post = (orderId: string) => Promise<number>;

/**
 * CONCURRENCY clients, each posting back to back for `warmup` + `seconds` (WARMUP + SECONDS),
 * spread over `orders`; the posts that answered 200 after the warm-up are counted and timed.
 */
async function drive(
  orders: readonly string[],
  post: Post,
  seconds = SECONDS,
  warmup = WARMUP,
): Promise<{ took: number[]; errors: number; elapsed: number; clientCpuMs: number }> {
  const took: number[] = [];
  let errors = 0;
  const warmupEnd = performance.now() + warmup * 1000;
  const end = warmupEnd + seconds * 1000;
  const worker = async (w: number) => {
    for (let i = 0; performance.now() < end && i < 1_000_000; i++) {
      const orderId = orders[(w + i * CONCURRENCY) % orders.length]!;
      const t0 = performance.now();
      const status = await post(orderId);
      if (t0 < warmupEnd) continue; // warm-up: not counted
      if (status === 200) took.push(performance.now() - t0);
      else errors++;
    }
  };
  let cpuAtStart: NodeJS.CpuUsage | undefined;
  const counting = setTimeout(() => (cpuAtStart = process.cpuUsage()), warmup * 1000);
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
  clearTimeout(counting);
  const cpu = process.cpuUsage(cpuAtStart);
  const clientCpuMs = (cpu.user + cpu.system) / 1000 / Math.max(1, took.length + errors);
  return { took, errors, elapsed: (performance.now() - warmupEnd) / 1000, clientCpuMs };
}

/** One socket per client, kept open between its posts, as a phone's browser keeps its own. */
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** A POST of `body` with node:http; the answer read to its end; its status (0 when the connection failed). */
function httpPost(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/** A POST to a path of the server at `base`, answering its status. */
type Poster = (path: string, headers: Record<string, string>, body: string) => Promise<number>;

/** The load generators BENCH_CLIENT chooses from: what each is called in the report, and its poster for a server. */
const CLIENTS: Record<typeof CLIENT_NAME, { name: string; poster: (base: string) => Poster }> = {
  lean: { name: 'lean HTTP/1.1 on kept-alive sockets', poster: leanPoster },
  http: { name: 'node:http, kept-alive sockets', poster: (base) => (path, headers, body) => httpPost(`${base}${path}`, headers, body) },
  fetch: {
    name: 'fetch',
    poster: (base) => async (path, headers, body) => {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers, body });
      await res.arrayBuffer();
      return res.status;
    },
  },
};
const CLIENT = CLIENTS[CLIENT_NAME];

/** An add as the web's outbox sends it: the product, quantity 1, a key when KEYED. */
function addPost(base: string, path: (orderId: string) => string, headers: Record<string, string>, productId: string): Post {
  const post = CLIENT.poster(base);
  return (orderId) => {
    const add = itemAdd(productId, { keyed: KEYED, newLines: NEW_LINES });
    return post(path(orderId), { ...headers, ...add.headers }, add.body);
  };
}

/** Item adds through Comanda's API, spread over ORDERS open orders. */
async function httpAdds(base: string): Promise<HttpResult> {
  const { waiter, orders, productId } = await openOrders(base, ORDERS);
  let pgAtStart: number | null = null;
  const atStart = new Promise<ServerCounters>((resolve) =>
    setTimeout(() => {
      pgAtStart = postgresCpuMs();
      resolve(serverCounters(base));
    }, WARMUP * 1000),
  );
  const { took, errors, elapsed, clientCpuMs } = await drive(
    orders,
    addPost(base, (orderId) => `/api/orders/${orderId}/items`, { cookie: waiter, ...ANSWER_HEADERS }, productId),
  );
  const pgAtEnd = postgresCpuMs();
  const [c0, c1] = [await atStart, await serverCounters(base)];
  const cpuMsPerAdd = c0.cpu !== null && c1.cpu !== null && took.length ? ((c1.cpu - c0.cpu) * 1000) / took.length : null;
  const commits = c0.groups !== null && c1.groups !== null ? c1.groups - c0.groups : null;
  const perCommit = commits && c0.grouped !== null && c1.grouped !== null ? (c1.grouped - c0.grouped) / commits : null;
  const alone = c0.alone !== null && c1.alone !== null ? c1.alone - c0.alone : null;
  const commitsPerAdd = commits !== null && alone !== null && took.length ? (commits + alone) / took.length : null;
  const perAdd = (a: number | null, b: number | null) => (a !== null && b !== null && took.length ? ((b - a) * 1000) / took.length : null);
  return {
    adds: took.length,
    perSecond: took.length / elapsed,
    p50: percentile(took, 50),
    p99: percentile(took, 99),
    errors,
    cpuMsPerAdd,
    perCommit,
    commitsPerAdd,
    sqliteMsPerAdd: perAdd(c0.busy, c1.busy),
    commitMsPerAdd: perAdd(c0.commit, c1.commit),
    pagesPerAdd: c0.pages !== null && c1.pages !== null && took.length ? (c1.pages - c0.pages) / took.length : null,
    clientCpuMs,
    pgCpuMsPerAdd: pgAtStart !== null && pgAtEnd !== null && took.length ? (pgAtEnd - pgAtStart) / took.length : null,
  };
}

/**
 * The same load against a bare HTTP server that only commits one row per POST
 * (raw-http-commit-server.ts): the share of raw commits an HTTP server of our stack reaches
 * at all on this machine, with nothing of Comanda's in it.
 */
async function floorPosts(
  databaseUrl: string,
): Promise<{ perSecond: number; p50: number; p99: number; errors: number; clientCpuMs: number }> {
  const floor = await spawnTs('bench/raw-http-commit-server.ts', { DATABASE_URL: databaseUrl }, await freePort(), '/health');
  try {
    const orders = Array.from({ length: ORDERS }, () => randomUUID());
    const { took, errors, elapsed, clientCpuMs } = await drive(
      orders,
      addPost(floor.url, () => '/add', {}, randomUUID()),
    );
    return { perSecond: took.length / elapsed, p50: percentile(took, 50), p99: percentile(took, 99), errors, clientCpuMs };
  } finally {
    await floor.stop();
  }
}

/** Small durable transactions (BEGIN; INSERT; COMMIT) with the server's own pragmas. */
function sqliteCommitRate(file: string, seconds = Math.min(SECONDS, 5)): number {
  const rows = sqliteOneRowCommits(file);
  let n = 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  while (performance.now() < end && n < 10_000_000) rows.commit(`n${n++}`);
  const rate = n / ((performance.now() - started) / 1000);
  rows.close();
  return rate;
}

/** PostgreSQL's CPU per raw commit in the last pgCommitRate run (postgresCpuMs), or null. */
let pgCpuMsPerRawCommit: number | null = null;

/** The same on PostgreSQL, with as many connections as the server's pool (10). */
async function pgCommitRate(url: string, seconds = Math.min(SECONDS, 5)): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // The run's database is dropped right after (WITH (FORCE)): a client still closing must not crash the benchmark.
  pool.on('error', () => undefined);
  await pool.query(PG_COMMIT_TABLE);
  let n = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  const cpuAtStart = postgresCpuMs();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < end && n < 10_000_000) await pgOneRowCommit(client, `n${n++}`);
      } finally {
        client.release();
      }
    }),
  );
  const rate = n / ((performance.now() - started) / 1000);
  const cpuAtEnd = postgresCpuMs();
  pgCpuMsPerRawCommit = cpuAtStart !== null && cpuAtEnd !== null && n ? (cpuAtEnd - cpuAtStart) / n : null;
  await pool.end();
  return rate;
}

/** Resolves once the server's CPU stays under a tenth of a core for a quarter second (its print worker done), or after 5 s. */
async function serverIdle(base: string): Promise<void> {
  let last = (await serverCounters(base)).cpu;
  for (let waited = 0; waited < 5000 && last !== null; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = (await serverCounters(base)).cpu;
    if (now === null || now - last < 0.025) return;
    last = now;
  }
}

interface Pair {
  adds: number;
  raw: number;
}

/** PAIRS rounds of adds and raw commits in turn against the server at `base` (BENCH_PAIRS). */
async function pairedRounds(base: string, raw: () => number | Promise<number>): Promise<Pair[]> {
  const { waiter, orders, productId } = await openOrders(base, ORDERS);
  const post = addPost(base, (orderId) => `/api/orders/${orderId}/items`, { cookie: waiter, ...ANSWER_HEADERS }, productId);
  const pairs: Pair[] = [];
  for (let round = 0; round < PAIRS; round++) {
    // The first round warms the server as the main run does; later ones only refill the pipeline.
    const { took, elapsed } = await drive(orders, post, PAIR_SECONDS, round === 0 ? WARMUP : Math.min(WARMUP, 0.5));
    await serverIdle(base);
    pairs.push({ adds: took.length / elapsed, raw: await raw() });
  }
  return pairs;
}

/** Each round's share of raw commits, in percent. */
const sharesOf = (pairs: readonly Pair[]) => pairs.map((p) => (100 * p.adds) / p.raw);
const pairedLine = (database: string, pairs: readonly Pair[]) => {
  const shares = sharesOf(pairs);
  const rounds = pairs.map((p, i) => `${fmt(p.adds, 0)}/${fmt(p.raw, 0)} (${fmt(shares[i]!)}%)`).join(', ');
  return `  ${database}, ${pairs.length} rounds in turn (${PAIR_SECONDS} s of adds, then ${PAIR_RAW_SECONDS} s of raw commits once the server is idle): share of raw median ${fmt(percentile(shares, 50))}% (${fmt(Math.min(...shares))}–${fmt(Math.max(...shares))}%); adds/s / raw/s: ${rounds}`;
};
const pairedFigure = (database: string, pairs: readonly Pair[]): Figure => {
  const median = percentile(sharesOf(pairs), 50);
  return {
    benchmark: 'write throughput',
    what: `share of raw commits, ${database}, ${pairs.length} rounds in turn`,
    value: `median ${fmt(median)}%`,
    target: '≥ 25 %',
    met: median >= 25,
  };
};

type Floor = Awaited<ReturnType<typeof floorPosts>>;
const floorLine = (floor: Floor, raw: number, http: HttpResult) =>
  `    bare HTTP server committing one row per POST, same load: ${fmt(floor.perSecond, 0)}/s (p50 ${fmt(floor.p50)} ms, p99 ${fmt(floor.p99)} ms, ${floor.errors} errors, load generator ${fmt(floor.clientCpuMs, 3)} ms CPU per request) = ${fmt((100 * floor.perSecond) / raw)}% of raw; Comanda's adds are ${fmt((100 * http.perSecond) / floor.perSecond)}% of it`;

/**
 * SQLite's own time per add bounds the adds a single event loop can make, whatever the rest of the
 * server costs: the line says how far that bound is from raw commits.
 */
const sqliteBound = (http: HttpResult, raw: number) =>
  http.sqliteMsPerAdd === null
    ? '    time inside SQLite per add: unknown'
    : `    time inside SQLite per add: ${fmt(http.sqliteMsPerAdd, 3)} ms (COMMITs ${fmt(http.commitMsPerAdd ?? 0, 3)} ms${http.pagesPerAdd === null ? '' : `, ${fmt(http.pagesPerAdd, 2)} log pages`}) of the event loop → a server doing nothing but these statements would make ${fmt(1000 / http.sqliteMsPerAdd, 0)} adds/s = ${fmt((100 * 1000) / http.sqliteMsPerAdd / raw)}% of raw; the server's CPU per add outside SQLite: ${http.cpuMsPerAdd === null ? 'unknown' : `~${fmt(http.cpuMsPerAdd - http.sqliteMsPerAdd, 3)} ms`}`;
const floorFigure = (database: string, floor: Floor, raw: number): Figure => ({
  benchmark: 'write throughput',
  what: `bare HTTP commits/s, ${database}, same run`,
  value: `${fmt(floor.perSecond, 0)}/s (ratio to raw ${fmt(floor.perSecond / raw, 3)})`,
  target: '—',
  met: null,
});

const cpuText = (http: HttpResult) => (http.cpuMsPerAdd === null ? 'unknown' : `${fmt(http.cpuMsPerAdd, 2)} ms`);

export async function runWriteThroughput(log: (l: string) => void = console.log): Promise<Figure[]> {
  log(
    `write throughput: ${CONCURRENCY} concurrent HTTP clients (${CLIENT.name}) adding items to ${ORDERS} orders for ${SECONDS} s after ${WARMUP} s of warm-up, ${ANSWER_NAME} answer, ${KEYED ? 'an Idempotency-Key on every add' : 'no Idempotency-Key'}`,
  );
  const figures: Figure[] = [];

  const kinds = benchDatabaseKinds();
  if (kinds.includes('sqlite'))
    await withFreshDatabase('sqlite', async (database) => {
      const http = await withComanda(database, httpAdds);
      const raw = sqliteCommitRate(join(database.dataDir, 'raw.db'));
      const floor = await floorPosts(`sqlite:${join(database.dataDir, 'floor.db')}`);
      log(
        `  SQLite: ${fmt(http.perSecond, 0)} adds/s through HTTP (${http.adds} adds, ~${fmt(http.adds / ORDERS, 0)} items per order at the end, p50 ${fmt(http.p50)} ms, p99 ${fmt(http.p99)} ms, ${http.errors} errors, server CPU ${cpuText(http)} per add${http.perCommit === null ? '' : `, ${fmt(http.perCommit, 1)} transactions per group COMMIT`}${http.commitsPerAdd === null ? '' : `, ${fmt(http.commitsPerAdd, 3)} COMMITs per add in all`}, load generator ${fmt(http.clientCpuMs, 3)} ms CPU per request)`,
      );
      log(
        `  SQLite raw commits (WAL, synchronous=FULL, one row each): ${fmt(raw, 0)}/s → HTTP adds are ${fmt((100 * http.perSecond) / raw)}% of it   target ≥ 1,000 adds/s`,
      );
      log(sqliteBound(http, raw));
      log(floorLine(floor, raw, http));
      figures.push(
        {
          benchmark: 'write throughput',
          what: 'item adds/s via HTTP, SQLite',
          value: `${fmt(http.perSecond, 0)}/s (p99 ${fmt(http.p99)} ms)`,
          target: '≥ 1,000/s',
          met: http.perSecond >= 1000,
        },
        {
          benchmark: 'write throughput',
          what: 'raw SQLite commits/s, same run',
          value: `${fmt(raw, 0)}/s (ratio ${fmt(http.perSecond / raw, 3)})`,
          target: '—',
          met: null,
        },
        floorFigure('SQLite', floor, raw),
      );
    });
  if (kinds.includes('sqlite') && PAIRS > 0)
    await withFreshDatabase('sqlite', async (database) => {
      const file = join(database.dataDir, 'raw-pairs.db');
      const pairs = await withComanda(database, (base) => pairedRounds(base, () => sqliteCommitRate(file, PAIR_RAW_SECONDS)));
      log(pairedLine('SQLite', pairs));
      figures.push(pairedFigure('SQLite', pairs));
    });

  if (kinds.includes('postgres')) {
    await withFreshDatabase('postgres', async (database) => {
      const http = await withComanda(database, httpAdds);
      const raw = await pgCommitRate(database.url);
      const floor = await floorPosts(database.url);
      log(
        `  PostgreSQL: ${fmt(http.perSecond, 0)} adds/s through HTTP (${http.adds} adds, ~${fmt(http.adds / ORDERS, 0)} items per order at the end, p50 ${fmt(http.p50)} ms, p99 ${fmt(http.p99)} ms, ${http.errors} errors, server CPU ${cpuText(http)} per add, load generator ${fmt(http.clientCpuMs, 3)} ms CPU per request)`,
      );
      log(
        `  PostgreSQL raw commits (10 connections, one row each): ${fmt(raw, 0)}/s → HTTP adds are ${fmt((100 * http.perSecond) / raw)}% of it`,
      );
      log(
        `    PostgreSQL's own CPU (all its processes): ${http.pgCpuMsPerAdd === null ? 'unknown' : `${fmt(http.pgCpuMsPerAdd, 3)} ms`} per add, ${pgCpuMsPerRawCommit === null ? 'unknown' : `${fmt(pgCpuMsPerRawCommit, 3)} ms`} per raw commit`,
      );
      log(floorLine(floor, raw, http));
      figures.push(
        {
          benchmark: 'write throughput',
          what: 'item adds/s via HTTP, PostgreSQL',
          value: `${fmt(http.perSecond, 0)}/s (p99 ${fmt(http.p99)} ms)`,
          target: '—',
          met: null,
        },
        {
          benchmark: 'write throughput',
          what: 'raw PostgreSQL commits/s, same run',
          value: `${fmt(raw, 0)}/s (ratio ${fmt(http.perSecond / raw, 3)})`,
          target: '—',
          met: null,
        },
        floorFigure('PostgreSQL', floor, raw),
      );
    });
    if (PAIRS > 0)
      await withFreshDatabase('postgres', async (database) => {
        const pairs = await withComanda(database, (base) => pairedRounds(base, () => pgCommitRate(database.url, PAIR_RAW_SECONDS)));
        log(pairedLine('PostgreSQL', pairs));
        figures.push(pairedFigure('PostgreSQL', pairs));
      });
  } else {
    log(
      `  PostgreSQL: skipped (${process.env.TEST_DATABASE_URL ? 'BENCH_DATABASES leaves it out' : 'set TEST_DATABASE_URL to include it'})`,
    );
  }
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runWriteThroughput().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
