import type { ChildProcess } from 'node:child_process';
import { freePort, REPO_ROOT, spawnTsProcess } from '@comanda/server/testing';
import { cpus } from 'node:os';

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
