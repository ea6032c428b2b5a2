/**
 * The database's own durable commits while a benchmark runs: one small transaction (BEGIN; INSERT
 * one row; COMMIT) every PROBE_EVERY_MS, in a process of its own, on the same database and disk as
 * the server. Its latencies are the floor under every write the server answers in that moment: a
 * slow fsync of the disk shows here as it shows in the server's p99s. It prints `ready` once it can
 * be stopped; on SIGTERM it prints one line of JSON ({ count, p50, p99, max, over50, stalls }) and
 * exits. `stalls` are the commits that took over STALL_MS, each as [start in milliseconds since the
 * epoch, duration]: a benchmark in another process lays its own slow samples over them.
 *
 * Usage: tsx bench/commit-probe.ts postgres <url> | sqlite <file>
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';

const [kind, target] = process.argv.slice(2);
const EVERY_MS = Number(process.env.PROBE_EVERY_MS ?? 100);
const STALL_MS = 20;
const took: number[] = [];
const stalls: [number, number][] = [];
let stopping = false;

function report(): void {
  const sorted = [...took].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]! : NaN);
  const out = { count: sorted.length, p50: at(0.5), p99: at(0.99), max: at(1), over50: sorted.filter((t) => t > 50).length, stalls };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function record(t0: number): void {
  const ms = performance.now() - t0;
  took.push(ms);
  if (ms > STALL_MS) stalls.push([Math.round((performance.timeOrigin + t0) * 10) / 10, Math.round(ms * 10) / 10]);
}

async function probePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('CREATE TABLE IF NOT EXISTS bench_probe (id bigserial PRIMARY KEY, at bigint)');
  // At least one commit, however soon the benchmark stops it.
  do {
    const t0 = performance.now();
    await client.query('BEGIN');
    await client.query({ name: 'bench_probe', text: 'INSERT INTO bench_probe (at) VALUES ($1)', values: [Date.now()] });
    await client.query('COMMIT');
    record(t0);
    await pause(EVERY_MS);
  } while (!stopping);
  await client.end();
}

async function probeSqlite(file: string): Promise<void> {
  // The server's pragmas (WAL, synchronous=FULL), in a file of its own beside the server's.
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS bench_probe (id INTEGER PRIMARY KEY, at INTEGER)');
  const insert = db.prepare('INSERT INTO bench_probe (at) VALUES (?)');
  const commit = db.transaction(() => insert.run(Date.now()));
  do {
    const t0 = performance.now();
    commit();
    record(t0);
    await pause(EVERY_MS);
  } while (!stopping);
  db.close();
}

process.on('SIGTERM', () => {
  stopping = true;
});
// Told to the benchmark, which stops the probe only after this line (before it, SIGTERM would kill
// a probe still loading, with no figures).
process.stdout.write('ready\n');
if (kind !== 'postgres' && kind !== 'sqlite') throw new Error('usage: commit-probe.ts postgres <url> | sqlite <file>');
await (kind === 'postgres' ? probePostgres(target!) : probeSqlite(target!));
report();
