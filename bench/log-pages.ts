/**
 * Where an item add's pages go: keyed adds through the real server on SQLite (as the write
 * benchmark sends them, printers on), then the log they wrote read frame by frame and each page
 * put down to the table or index it belongs to (SQLite's dbstat). A COMMIT costs the event loop by
 * the pages it writes (docs/performance.md), so this says which table or index an add pays for.
 *
 * A read transaction opened before the counted adds keeps the log from being restarted, and the
 * checkpoint from copying past it: every frame written after it stays in the file to be read.
 * `npx tsx bench/log-pages.ts` (LOG_PAGES_ADDS 2,000 after LOG_PAGES_WARMUP 3,000, over
 * BENCH_OPEN_ORDERS 200 orders, BENCH_CONCURRENCY 32 clients; BENCH_NEW_LINES=1: each add a new line).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { ANSWER_HEADERS, itemAdd, openOrders, withComanda, withFreshDatabase } from './lib.ts';
import { leanPoster } from './lean-http-client.ts';

const ADDS = Number(process.env.LOG_PAGES_ADDS ?? 2000);
const WARMUP = Number(process.env.LOG_PAGES_WARMUP ?? 3000);
const ORDERS = Number(process.env.BENCH_OPEN_ORDERS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const NEW_LINES = process.env.BENCH_NEW_LINES === '1';

export interface LogPages {
  adds: number;
  pages: number;
  commits: number;
  /** Pages per add, by table or index ("(interior)" for a B-tree's inner pages), most first. */
  byTree: [string, number][];
}

/** The committed frames of a log file: each one's page number, and whether it ends a transaction. */
function committedFrames(wal: Buffer): { page: number; commit: boolean }[] {
  if (wal.length < 32) return [];
  const pageSize = wal.readUInt32BE(8);
  const [salt1, salt2] = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  const frames: { page: number; commit: boolean }[] = [];
  let committed = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    // A frame of an earlier pass through the file carries that pass's salts: the log ends there.
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    const commit = wal.readUInt32BE(at + 4) !== 0;
    frames.push({ page: wal.readUInt32BE(at), commit });
    if (commit) committed = frames.length;
  }
  return frames.slice(0, committed);
}

export async function logPages(adds = ADDS, warmup = WARMUP): Promise<LogPages> {
  return withFreshDatabase('sqlite', (database) =>
    withComanda(database, async (base) => {
      const file = database.url.slice('sqlite:'.length);
      const { waiter, orders, productId } = await openOrders(base, ORDERS);
      const post = leanPoster(base);
      const run = async (count: number) => {
        let next = 0;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async (_, w) => {
            for (let i = next++; i < count; i = next++) {
              const orderId = orders[(w + i * CONCURRENCY) % orders.length]!;
              const add = itemAdd(productId, { keyed: true, newLines: NEW_LINES });
              const status = await post(`/api/orders/${orderId}/items`, { cookie: waiter, ...ANSWER_HEADERS, ...add.headers }, add.body);
              if (status !== 200) throw new Error(`add: ${status}`);
            }
          }),
        );
      };
      await run(warmup);
      const reader = new SQLite(file, { readonly: true });
      try {
        reader.prepare('BEGIN').run();
        reader.prepare('SELECT COUNT(*) FROM sqlite_schema').get();
        const from = committedFrames(readFileSync(`${file}-wal`)).length;
        await run(adds);
        // The print worker's claims and "printed" marks of these adds' comandas belong to them too.
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const frames = committedFrames(readFileSync(`${file}-wal`)).slice(from);
        reader.prepare('COMMIT').run();
        const owner = new Map<number, string>();
        for (const r of reader.prepare('SELECT name, pageno, pagetype FROM dbstat').all() as {
          name: string;
          pageno: number;
          pagetype: string;
        }[])
          owner.set(r.pageno, r.pagetype === 'internal' ? `${r.name} (interior)` : r.name);
        const counts = new Map<string, number>();
        for (const f of frames) {
          const name = owner.get(f.page) ?? '(free pages)';
          counts.set(name, (counts.get(name) ?? 0) + 1);
        }
        const byTree = [...counts].map(([name, n]) => [name, n / adds] as [string, number]).sort((a, b) => b[1] - a[1]);
        return { adds, pages: frames.length, commits: frames.filter((f) => f.commit).length, byTree };
      } finally {
        reader.close();
      }
    }),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await logPages();
  console.log(
    `log pages: ${r.adds} keyed adds over ${ORDERS} orders, ${CONCURRENCY} clients${NEW_LINES ? ', each a new line' : ''}: ${r.pages} pages in ${r.commits} COMMITs = ${(r.pages / r.adds).toFixed(2)} pages per add, ${(r.adds / r.commits).toFixed(1)} adds per COMMIT`,
  );
  for (const [name, perAdd] of r.byTree.filter(([, n]) => n >= 0.01)) console.log(`  ${perAdd.toFixed(3)}  ${name}`);
}
