import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, OrderChangeResponse } from '@comanda/contract';
import { ORDER_CHANGE_PREFER } from '@comanda/contract';
import { fewestStatements, statementsDuring, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import type { PrinterEmulator } from '../src/features/printing/emulator/emulator.ts';
import { onPrintJobsCommitted, insertJob } from '../src/model/printing/enqueue.ts';
import { transact } from '../src/db/transact.ts';
import { freshOrder, productsByStation, startPrintingServer, waitFor, type PrintingServer, type Product } from './printing-helpers.ts';

/**
 * What wakes the print worker (issue 20 item 1): the commit of a change that wrote print jobs, in
 * the process that wrote them, and nothing else. A board's status change prints nothing and used
 * to cost every process a scan of every printer; a rolled-back change must wake nobody.
 */
describe.each(testDatabaseKinds())('waking the print worker on %s', (kind) => {
  let server: TestServer;
  let printers: Record<'cocina' | 'barra' | 'caja', PrinterEmulator>;
  let admin: ApiClient;
  let waiter: ApiClient;
  let products: Product[];
  let wakes = 0;
  let wokenRoles: string[] = [];
  let stopCounting: () => void;

  let running: PrintingServer | undefined;

  beforeAll(async () => {
    running = await startPrintingServer(kind);
    ({ server, printers, admin, waiter } = running);
    products = await productsByStation(server);
    stopCounting = onPrintJobsCommitted((roles) => {
      wakes++;
      wokenRoles.push(...roles);
    });
  }, 60_000);
  afterAll(async () => {
    stopCounting?.();
    await running?.stop();
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('an add wakes the workers once, after its commit, and its comanda prints', async () => {
    const order: Order = await freshOrder(admin, waiter);
    const drink = products.find((p) => p.station === 'barra')!;
    printers.barra.clear();
    await settle();
    wakes = 0;
    wokenRoles = [];
    const res = await waiter.post<OrderChangeResponse>(
      `/api/orders/${order.id}/items`,
      { productId: drink.id, quantity: 1, notes: 'despertar-1' },
      { prefer: ORDER_CHANGE_PREFER },
    );
    expect(res.status).toBe(200);
    await settle();
    expect(wakes).toBe(1);
    // It names the printers it wrote for: the barra's, not the cocina's or the caja's.
    expect(wokenRoles).toEqual(['barra']);
    await waitFor(() => printers.barra.list().some((t) => t.text.includes('despertar-1')), 5_000, 'the comanda');
  });

  it("a board's status change wakes no worker", async () => {
    const order: Order = await freshOrder(admin, waiter);
    const drink = products.find((p) => p.station === 'barra')!;
    const added = await waiter.post<OrderChangeResponse>(
      `/api/orders/${order.id}/items`,
      { productId: drink.id, quantity: 1 },
      { prefer: ORDER_CHANGE_PREFER },
    );
    const itemId = added.body.change.items[0]!.id;
    const barra = await server.login(server.users.barra.email);
    await settle();
    wakes = 0;
    for (const status of ['en_preparacion', 'listo'])
      expect((await barra.request('PATCH', `/api/orders/${order.id}/items/${itemId}/status`, { status })).status).toBe(200);
    await settle();
    expect(wakes).toBe(0);
  });

  it('a transaction that wrote a job and rolled back wakes nobody; one that committed wakes once for all its jobs', async () => {
    const printer = await server.ctx.db.db.selectFrom('printers').select(['id']).where('role', '=', 'caja').executeTakeFirstOrThrow();
    const job = (now: number): Parameters<typeof insertJob>[1] => ({
      printerId: printer.id,
      role: 'caja',
      orderId: null,
      kind: 'prueba',
      document: { type: 'prueba', printerName: 'Caja', role: 'caja', at: now },
      now,
    });
    await settle();
    wakes = 0;
    wokenRoles = [];
    await expect(
      transact(server.ctx.db, async (trx) => {
        await insertJob(trx, job(server.ctx.clock.now()));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await settle();
    expect(wakes).toBe(0);
    await transact(server.ctx.db, async (trx) => {
      await insertJob(trx, job(server.ctx.clock.now()));
      await insertJob(trx, job(server.ctx.clock.now()));
      // Not before the commit.
      await settle();
      expect(wakes).toBe(0);
    });
    await settle();
    expect(wakes).toBe(1);
    expect(wokenRoles).toEqual(['caja']);
  });

  it("a lone comanda costs the worker one read of the printers, one of its printer's queue head, its claim and its printed: no read to find nothing, no status read", async () => {
    const order: Order = await freshOrder(admin, waiter);
    const drink = products.find((p) => p.station === 'barra')!;
    const workerStatements = await fewestStatements(3, async (attempt) => {
      printers.barra.clear();
      await settle();
      const seen = await statementsDuring(server.ctx.db, async () => {
        const res = await waiter.post(`/api/orders/${order.id}/items`, { productId: drink.id, quantity: 1, notes: `sola-${attempt}` });
        expect(res.status).toBe(200);
        await waitFor(() => printers.barra.list().some((t) => t.text.includes(`sola-${attempt}`)), 5_000, 'the comanda');
        // The printed mark follows the printer's answer.
        await waitFor(
          async () => (await server.ctx.db.db.selectFrom('print_jobs').select('id').where('state', '!=', 'printed').execute()).length === 0,
          5_000,
          'the printed mark',
        );
      });
      // The worker's own: the add's statements read printers by role or write print_jobs by insert.
      return seen.filter((t) => /from "printers"|"print_jobs"/.test(t) && !/^insert|"role" = |state" != /i.test(t.trim()));
    });
    const count = (pattern: RegExp) => workerStatements.filter((t) => pattern.test(t)).length;
    expect(count(/from "printers"/), workerStatements.join('\n')).toBe(1);
    // The scan drains only the barra's printer: the commit named its role, so the cocina's and the
    // caja's queues are not read to find them empty.
    expect(count(/from "print_jobs"/), workerStatements.join('\n')).toBe(1);
    expect(count(/^update "print_jobs"/), workerStatements.join('\n')).toBe(2);
    expect(workerStatements, workerStatements.join('\n')).toHaveLength(4);
  });
});
