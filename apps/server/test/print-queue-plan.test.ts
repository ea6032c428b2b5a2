import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema.ts';
import { printJobRow } from '../src/testing/factories.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planOf, statementsDuring, testDatabaseKinds } from '../src/testing/index.ts';
import { freshOrder, productsByStation, startPrintingServer, waitFor, type PrintingServer } from './printing-helpers.ts';

/**
 * A printer's queue is read in order from an index of the waiting jobs alone (migration 0022):
 * with a backlog behind a printer (off for an hour, or a rush ahead of it) and a week of printed
 * jobs in the table, the worker's read of its next jobs must stop after its batch, not fetch every
 * waiting job and sort them, as it did on (printer_id, state, seq) with two states to read. Since
 * migration 0025 that partial index is the only index on a job's state: every other statement of
 * the print path and of the printers' screens must still find its rows by an index.
 */
describe.each(testDatabaseKinds())('the print worker reads a printer queue in order on %s', (kind) => {
  let s: PrintingServer;

  beforeAll(async () => {
    s = await startPrintingServer(kind);
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });
  const insertJobs = async (db: Kysely<Database>, rows: readonly ReturnType<typeof printJobRow>[]) => {
    for (let i = 0; i < rows.length; i += 250)
      await db
        .insertInto('print_jobs')
        .values(rows.slice(i, i + 250))
        .execute();
  };

  it('every statement that reads or changes queued jobs uses an index, behind a week of 8,000 printed jobs (and no statistics on SQLite, as a bar server has none)', async () => {
    const { server, printers, admin, waiter } = s;
    const db = server.ctx.db.db;
    const order = await freshOrder(admin, waiter);
    const printer = await db.selectFrom('printers').select('id').where('role', '=', 'cocina').executeTakeFirstOrThrow();
    const hourAgo = Date.now() - 3_600_000;
    const printed = Array.from({ length: 8000 }, (_, i) =>
      printJobRow({
        id: `week-${i}`,
        printer_id: printer.id,
        order_id: order.id,
        created_at: hourAgo,
        state: 'printed',
        attempts: 1,
        printed_at: hourAgo,
      }),
    );
    await insertJobs(db, printed);
    // PostgreSQL's autovacuum keeps statistics; the server never runs ANALYZE on SQLite, nor does this.
    if (kind === 'postgres') await sql`ANALYZE print_jobs`.execute(db);
    // The barra's printer has no backlog: its comanda is claimed, sent and marked printed at once.
    const drink = (await productsByStation(server)).find((p) => p.station === 'barra')!;
    const before = printers.barra.list().length;
    const seen = await statementsDuring(server.ctx.db, async () => {
      expect((await waiter.post(`/api/orders/${order.id}/items`, { productId: drink.id, quantity: 1 })).status).toBe(200);
      await waitFor(() => printers.barra.list().length > before, 10_000, 'the comanda');
      expect((await admin.get('/api/printers')).status).toBe(200);
      expect((await admin.get('/api/printers/alerts')).status).toBe(200);
      // The worker's alert check runs at most once a second: one more delivery after a second.
      await new Promise((r) => setTimeout(r, 1100));
      expect((await waiter.post(`/api/orders/${order.id}/items`, { productId: drink.id, quantity: 1 })).status).toBe(200);
      await waitFor(() => printers.barra.list().length > before + 1, 10_000, 'the second comanda');
    });
    const statements = [...new Set(seen)].filter((t) => /"?print_jobs"?/.test(t) && !/^insert/i.test(t.trim()));
    const kinds = (pattern: RegExp) => statements.filter((t) => pattern.test(t)).length;
    // The worker's claim and its "printed", its next-jobs read, the alert check and both screens' reads.
    expect(kinds(/^update "print_jobs" set "state" = .*"attempts"/)).toBeGreaterThanOrEqual(1);
    expect(kinds(/^update "print_jobs" set "state" = .*"printed_at"/)).toBeGreaterThanOrEqual(1);
    expect(kinds(/count\(\*\)/)).toBeGreaterThanOrEqual(1);
    expect(kinds(/inner join "printers"/)).toBeGreaterThanOrEqual(1);
    expect(kinds(/"created_at" <= /)).toBeGreaterThanOrEqual(2);
    for (const text of statements) {
      const plan = await planOf(db, kind, kind === 'sqlite' ? text.replaceAll('?', "'1'") : text.replace(/\$\d+/g, "'1'"));
      // A scan of print_jobs_live reads the waiting jobs alone; any other scan reads the week's.
      if (kind === 'sqlite') expect(plan, text).not.toMatch(/SCAN print_jobs(?! USING (COVERING )?INDEX print_jobs_live)/);
      else expect(plan, text).not.toMatch(/Seq Scan on print_jobs/);
    }
  });

  it('its next-jobs read uses print_jobs_live, in seq order, with no sort, behind a backlog of 300 and 2,000 printed', async () => {
    const { server, printers, admin, waiter } = s;
    const db = server.ctx.db.db;
    const product = (await productsByStation(server)).find((p) => p.station === 'cocina')!;
    const order = await freshOrder(admin, waiter);
    const seen = await statementsDuring(server.ctx.db, async () => {
      expect((await waiter.post(`/api/orders/${order.id}/items`, { productId: product.id, quantity: 1 })).status).toBe(200);
      await waitFor(() => printers.cocina.list().length >= 1, 10_000, 'the comanda');
    });
    const next = [...new Set(seen)].filter(
      (t) => /from "print_jobs"/.test(t) && /limit/i.test(t) && /"state" in \('pending', 'printing'\)/.test(t),
    );
    expect(next).toHaveLength(1);

    // A backlog behind the cocina printer (not due for an hour: the worker leaves it) and a week of printed jobs.
    const printer = await db.selectFrom('printers').select('id').where('role', '=', 'cocina').executeTakeFirstOrThrow();
    const now = Date.now();
    const job = (i: number, state: 'pending' | 'printed') =>
      printJobRow({
        id: `plan-${state}-${i}`,
        printer_id: printer.id,
        order_id: order.id,
        created_at: now,
        state,
        next_attempt_at: now + 3_600_000,
        printed_at: state === 'printed' ? now : null,
      });
    await insertJobs(db, [
      ...Array.from({ length: 2000 }, (_, i) => job(i, 'printed')),
      ...Array.from({ length: 300 }, (_, i) => job(i, 'pending')),
    ]);

    const text = next[0]!;
    if (kind === 'sqlite') {
      await sql`ANALYZE`.execute(db);
      const literal = text.replace('?', `'${printer.id}'`).replace('?', '10');
      const plan = (await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${literal}`).execute(db)).rows.map((r) => r.detail);
      expect(plan.join(' | ')).toMatch(/USING INDEX print_jobs_live/);
      expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE/);
    } else {
      await sql`ANALYZE print_jobs`.execute(db);
      const literal = text.replace('$1', `'${printer.id}'`).replace('$2', '10');
      const plan = (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS OFF) ${literal}`).execute(db)).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      expect(plan).toMatch(/Index Scan using print_jobs_live/);
      expect(plan).not.toMatch(/Sort/);
      // The scan stopped at the batch: ten rows read, not the 300 waiting.
      expect(plan).toMatch(/Index Scan using print_jobs_live[^\n]*actual time=[^\n]*rows=10 /);
    }
  });
});
