import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementsDuring, testDatabaseKinds } from '../src/testing/index.ts';
import { freshOrder, productsByStation, startPrintingServer, waitFor, type PrintingServer } from './printing-helpers.ts';

/**
 * A printer's queue is read in order from an index of the waiting jobs alone (migration 0022):
 * with a backlog behind a printer (off for an hour, or a rush ahead of it) and a week of printed
 * jobs in the table, the worker's read of its next jobs must stop after its batch, not fetch every
 * waiting job and sort them, as it did on (printer_id, state, seq) with two states to read.
 */
describe.each(testDatabaseKinds())('the print worker reads a printer queue in order on %s', (kind) => {
  let s: PrintingServer;

  beforeAll(async () => {
    s = await startPrintingServer(kind);
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
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
    const job = (i: number, state: 'pending' | 'printed') => ({
      id: `plan-${state}-${i}`,
      printer_id: printer.id,
      role: 'cocina' as const,
      order_id: order.id,
      kind: 'comanda' as const,
      document: '{}',
      created_at: now,
      state,
      attempts: 0,
      next_attempt_at: now + 3_600_000,
      lease_until: null,
      claim: null,
      maybe_printed: 0,
      last_error: null,
      printed_at: state === 'printed' ? now : null,
    });
    const rows = [
      ...Array.from({ length: 2000 }, (_, i) => job(i, 'printed')),
      ...Array.from({ length: 300 }, (_, i) => job(i, 'pending')),
    ];
    for (let i = 0; i < rows.length; i += 250)
      await db
        .insertInto('print_jobs')
        .values(rows.slice(i, i + 250))
        .execute();

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
