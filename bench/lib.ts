import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { v7 } from 'uuid';
import { createTestDatabase, testDatabaseKinds, type TestDatabase, type TestDbKind } from '../apps/server/src/testing/databases.ts';
import { freePort, REPO_ROOT, spawnTsProcess } from '../apps/server/src/testing/process.ts';

/** Shared helpers of the benchmarks: a real server process, HTTP calls, percentiles. Loopback only. */
export { freePort, REPO_ROOT };
export const DEMO_PASSWORD = 'comanda123';
export const ACCOUNTS = {
  admin: 'admin@comanda.mx',
  waiter: 'mesero@comanda.mx',
  kitchen: 'cocina@comanda.mx',
  barra: 'barra@comanda.mx',
} as const;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface Child {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns a TypeScript entry with tsx and waits until `readyPath` answers 200. */
export async function spawnTs(
  entry: string,
  env: Record<string, string>,
  port: number,
  readyPath: string,
  timeoutMs = 90_000,
): Promise<Child> {
  const proc = await spawnTsProcess(entry, env, port, readyPath, timeoutMs);
  return { url: proc.url, process: proc.child, stop: () => proc.stop() };
}

/** The real Comanda server (`apps/server/src/main.ts`) with demo data, in its own process. */
export async function startComanda(env: Record<string, string>): Promise<Child> {
  const port = await freePort();
  return spawnTs(
    'apps/server/src/main.ts',
    { DEMO_DATA: 'auto', PIN_SECRET: 'bench-pin-secret-0123456789', WEB_DIST: '/nonexistent', ...env },
    port,
    '/api/health',
  );
}

/**
 * Where a benchmark's comandas print. 'devices': the bar's three printers as a process of their
 * own (bench/printer-devices.ts: ESC/POS emulators over TCP, as printers on the LAN), given to the
 * server as PRINTERS; the server only sends, and neither the server's nor the load generator's
 * event loop decodes tickets. 'server': the server's own demo emulators (PRINTER_EMULATOR=on),
 * which also decode every ticket on the server's core. 'off': no printers.
 */
export async function printersFor(
  where: string,
): Promise<{ env: Record<string, string>; printed: () => Promise<number | null>; stop: () => Promise<void> }> {
  if (where === 'server') return { env: { PRINTER_EMULATOR: 'on' }, printed: async () => null, stop: async () => undefined };
  if (where === 'off') return { env: {}, printed: async () => null, stop: async () => undefined };
  const roles = ['cocina', 'barra', 'caja'] as const;
  const ports = await Promise.all(roles.map(() => freePort()));
  // No SERVER_NODE_ARGS here: those are for the server (a profile of the printers is not wanted).
  const devices = await spawnTsProcess(
    'bench/printer-devices.ts',
    { PRINTER_PORTS: roles.map((r, i) => `${r}=${ports[i]}`).join(',') },
    await freePort(),
    '/health',
    60_000,
    [],
  );
  return {
    env: { PRINTERS: roles.map((r, i) => `${r}=tcp://127.0.0.1:${ports[i]}`).join(',') },
    printed: async () => ((await (await fetch(`${devices.url}/count`)).json()) as { printed: number }).printed,
    stop: () => devices.stop(),
  };
}

/**
 * Runs `work` against the real server (startComanda) on `database`, given the server's URL, and
 * stops the server afterwards (the database stays for the caller).
 */
export async function withComanda<T>(database: TestDatabase, work: (url: string) => Promise<T>): Promise<T> {
  // The comandas print on printers of their own (a bar's are devices on the LAN), not on the
  // demo's emulators inside the server, which would decode every ticket on the server's CPU.
  const printers = await printersFor(process.env.BENCH_PRINTERS ?? 'devices');
  const server = await startComanda({ DATABASE_URL: database.url, DATA_DIR: database.dataDir, PRINTER_EMULATOR: 'off', ...printers.env });
  try {
    return await work(server.url);
  } finally {
    await server.stop();
    await printers.stop();
  }
}

/** Runs `work` on a fresh database of `kind` (a scratch SQLite file, or a new PostgreSQL database), dropped afterwards. */
export async function withFreshDatabase<T>(kind: TestDbKind, work: (database: TestDatabase) => Promise<T>): Promise<T> {
  const database = await createTestDatabase(kind);
  try {
    return await work(database);
  } finally {
    await database.drop();
  }
}

/**
 * The databases a query benchmark fills: SQLite, and PostgreSQL when TEST_DATABASE_URL is set;
 * BENCH_DATABASES=postgres (or sqlite, or a comma-separated list) keeps only those.
 */
export function benchDatabaseKinds(): TestDbKind[] {
  const only = process.env.BENCH_DATABASES;
  return testDatabaseKinds().filter((k) => !only || only.split(',').includes(k));
}

/** Signs in a demo account through the API; returns its session cookie (`name=value`). */
export async function login(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

export async function api<T>(
  base: string,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(base + path, {
    method,
    headers: { cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : null,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

type TableRow = { id: string; number: number; status: string };

/**
 * `count` open orders of the waiter, one per table, creating tables 11… when the demo's ten
 * are not enough (so no order grows past a realistic size during a run).
 */
export async function openOrders(
  base: string,
  count: number,
): Promise<{ waiter: string; admin: string; orders: string[]; productId: string }> {
  const admin = await login(base, ACCOUNTS.admin);
  const waiter = await login(base, ACCOUNTS.waiter);
  let { tables } = (await api<{ tables: TableRow[] }>(base, admin, 'GET', '/api/tables')).body;
  for (let n = 11; tables.filter((t) => t.number >= 1).length < count && n < 999; n++) {
    if (tables.some((t) => t.number === n)) continue;
    await api(base, admin, 'POST', '/api/tables', { number: n });
    tables = (await api<{ tables: TableRow[] }>(base, admin, 'GET', '/api/tables')).body.tables;
  }
  const free = tables.filter((t) => t.number >= 1 && t.status === 'libre').slice(0, count);
  const orders: string[] = [];
  for (const t of free) {
    const res = await api<{ order: { id: string } }>(base, waiter, 'POST', `/api/tables/${t.id}/open`);
    if (res.status !== 200) throw new Error(`open table ${t.number}: ${res.status}`);
    orders.push(res.body.order.id);
  }
  const products = (await api<{ products: { id: string; category: string }[] }>(base, waiter, 'GET', '/api/products?available=1')).body
    .products;
  // A kitchen item: it shows on the 'board' topic.
  const productId = (products.find((p) => p.category === 'Comida') ?? products[0]!).id;
  return { waiter, admin, orders, productId };
}

/**
 * The answer the item adds ask for, as the web app does (decision 0029): the light one (what
 * changed) unless BENCH_ANSWER=whole, which measures the whole-order answer clients get without it.
 */
export const ANSWER_HEADERS: Record<string, string> = process.env.BENCH_ANSWER === 'whole' ? {} : { prefer: 'return=minimal' };
export const ANSWER_NAME = process.env.BENCH_ANSWER === 'whole' ? 'whole order' : 'light (Prefer: return=minimal)';

let noteSeq = 0;

/**
 * An item add's headers and body as the web's outbox sends them: quantity 1, with `keyed` a
 * time-ordered (version 7) Idempotency-Key. With `newLines` a note of its own makes every add a new
 * line, the plain case; without, the same product on a pending line raises that line.
 */
export function itemAdd(
  productId: string,
  { keyed, newLines }: { keyed: boolean; newLines: boolean },
): { headers: Record<string, string>; body: string } {
  return {
    headers: { 'content-type': 'application/json', ...(keyed ? { 'idempotency-key': v7() } : {}) },
    body: JSON.stringify({ productId, quantity: 1, ...(newLines ? { notes: `n${++noteSeq}` } : {}) }),
  };
}

/** Deterministic pseudo-random numbers in [0, 1) from `seed`, so every run measures the same data. */
export function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The median and 95th percentile of a timed call, in ms (two decimals). */
export interface Timing {
  p50: number;
  p95: number;
}

/** Times `work` over `runs` runs (given the run's index) after one warm-up call with index -1. */
export async function timeRuns(runs: number, work: (run: number) => Promise<unknown>): Promise<Timing> {
  await work(-1); // warm-up: first statement preparation and page cache
  const ms: number[] = [];
  for (let run = 0; run < runs; run++) {
    const t0 = performance.now();
    await work(run);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]! * 100) / 100;
  return { p50: at(0.5), p95: at(0.95) };
}

/** Nearest-rank percentile of an unsorted sample. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

export function machine(): string {
  const list = cpus();
  return `${list.length} × ${list[0]?.model ?? 'cpu'}, Node ${process.version}, ${process.platform}`;
}

/** A line of the final summary: what was measured, the figure, the target, met or not. */
export interface Figure {
  benchmark: string;
  what: string;
  value: string;
  target: string;
  met: boolean | null;
}

/** A chunk of the web build's Vite manifest (`vite build --manifest`). */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  isEntry?: boolean;
}
export type Manifest = Record<string, ManifestChunk>;

/** The Vite manifest of a web build made with --manifest. */
export function readManifest(dist: string): Manifest {
  return JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** A real production build of the web app into `outDir`, with its manifest; returns the manifest. */
export function buildWebWithManifest(outDir: string): Manifest {
  const res = spawnSync('npx', ['vite', 'build', 'apps/web', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'warn'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`vite build failed: ${res.stderr}`);
  return readManifest(outDir);
}

/** The files a manifest key loads eagerly: its own chunk and every static import, transitively. */
export function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const dep of chunk.imports ?? []) staticClosure(manifest, dep, seen);
  return seen;
}

/** What the browser loads eagerly on /login: the entry chunk and its static imports. */
export function loginRouteFiles(manifest: Manifest): Set<string> {
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry) ?? 'index.html';
  return staticClosure(manifest, entryKey);
}

/** What bench/commit-probe.ts measured: the database's own one-row durable commits, in ms. */
export interface CommitProbe {
  count: number;
  p50: number;
  p99: number;
  max: number;
  over50: number;
  /** Commits over 20 ms: [start in ms since the epoch, duration in ms]. */
  stalls: [number, number][];
}

/**
 * Starts bench/commit-probe.ts against a benchmark's database (PostgreSQL: its URL; SQLite: a file
 * of its own in the same data directory, so on the same disk). `stop()` ends it and gives its figures.
 */
export function startCommitProbe(
  kind: 'sqlite' | 'postgres',
  database: { url: string; dataDir: string },
): { stop: () => Promise<CommitProbe | null> } {
  const target = kind === 'postgres' ? database.url : join(database.dataDir, 'probe.db');
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/commit-probe.ts', kind, target], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop() {
      // A short run on a loaded machine may end before the probe has loaded: wait for it (or its exit).
      await Promise.race([ready, exited]);
      child.kill('SIGTERM');
      await exited;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      return line ? (JSON.parse(line) as CommitProbe) : null;
    },
  };
}

/** A process's CPU time in ms (user + system, all threads) from its /proc/<pid>/stat text, and its command name. */
export function statCpu(stat: string): { name: string; cpuMs: number } {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime + stime, at 100 ticks per second.
  return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 };
}

/**
 * CPU time (ms) of every PostgreSQL process on this machine (backends, WAL writer, autovacuum), from
 * /proc; null where /proc cannot tell (not Linux). The benchmarks run PostgreSQL on the same machine:
 * the difference over a window, per add, is the database's share of the work.
 */
export function postgresCpuMs(): number | null {
  let ms = 0;
  let found = false;
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const { name, cpuMs } = statCpu(readFileSync(`/proc/${pid}/stat`, 'utf8'));
        if (!name.startsWith('postgres')) continue;
        ms += cpuMs;
        found = true;
      } catch {
        // A process that ended meanwhile.
      }
    }
  } catch {
    return null;
  }
  return found ? ms : null;
}
