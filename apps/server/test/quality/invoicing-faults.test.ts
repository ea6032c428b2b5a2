import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Product } from '@comanda/contract';
import { connect, type Db } from '../../src/db/connect.ts';
import { DEMO_USERS, loginAt, type ApiClient } from '../../src/testing/index.ts';
import { startInvoicingSimulator, type InvoicingSimulator } from '../../src/invoicing/simulator/server.ts';
import { serverProcessOnTempSqlite } from './server-process.ts';

const admin = DEMO_USERS.find((u) => u.role === 'admin')!;
const waiter = DEMO_USERS.find((u) => u.role === 'waiter')!;
let keys = 0;
const key = () => ({ 'idempotency-key': `fault-${process.pid}-${++keys}` });

async function waitUntil(check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * kill -9 of the server between a check's close and its receipt: while the PAC call hangs, and
 * after the PAC stamped the receipt but before its answer came back. After the restart every
 * check has exactly one receipt at the PAC and in the database.
 */
describe('kill -9 between the close and the receipt (SQLite)', () => {
  let sim: InvoicingSimulator;
  beforeAll(async () => {
    sim = await startInvoicingSimulator({ apiKey: 'sk_test_fault_suite' });
  });
  afterAll(() => sim?.close());
  const proc = serverProcessOnTempSqlite('comanda-invoicing-faults-', {
    DEMO_DATA: 'auto',
    PIN_SECRET: 'fault-test-pin-secret-0123456789',
    get FACTURAPI_KEY() {
      return sim.apiKey;
    },
    get FACTURAPI_BASE_URL() {
      return sim.apiUrl;
    },
    INVOICING_RETRY_MS: '50',
    INVOICING_RETRY_MAX_MS: '200',
    INVOICING_TIMEOUT_MS: '400',
  });
  let db: Db;
  afterAll(() => db?.close());

  async function closeChecks(base: string, count: number, firstTable: number): Promise<Order[]> {
    const a: ApiClient = await loginAt(base, admin.email);
    const w: ApiClient = await loginAt(base, waiter.email);
    const product = (await a.get<{ products: Product[] }>('/api/products')).body.products.find((p) => p.available)!;
    const orders: Order[] = [];
    for (let i = 0; i < count; i++) {
      const table = (await a.post<{ table: { id: string } }>('/api/tables', { number: firstTable + i }, key())).body.table;
      let order = (await w.post<{ order: Order }>(`/api/tables/${table.id}/open`, {}, key())).body.order;
      order = (await w.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: product.id, quantity: 2 }, key())).body.order;
      for (const item of order.items) await a.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' }, key());
      const closed = await w.post<{ order: Order }>(
        `/api/orders/${order.id}/close`,
        { method: 'efectivo', pin: waiter.pin, tipBps: 1000, peopleCount: 1, receivedAmount: 10_000_00 },
        key(),
      );
      expect(closed.status).toBe(200);
      orders.push(closed.body.order);
    }
    return orders;
  }

  const receiptsAtPac = (folio: number) => [...sim.store.receipts.values()].filter((r) => r.folio_number === folio);
  const rows = (ids: string[]) => db.db.selectFrom('invoice_receipts').selectAll().where('order_id', 'in', ids).execute();

  it(
    'creates each receipt once after a crash with the PAC call hanging, and after one whose answer was lost',
    { timeout: 120_000 },
    async () => {
      db = connect(proc.databaseUrl);
      // The PAC hangs: the closes go through, their receipts are claimed and in flight when the server dies.
      sim.control.addFault({ hang: true, method: 'POST', path: '/v2/receipts', count: 0 });
      const hung = await closeChecks(proc.current.url, 3, 800);
      await waitUntil(async () => (await rows(hung.map((o) => o.id))).filter((r) => r.claim !== null).length >= 1);
      await proc.current.kill9();
      sim.control.faults.length = 0;
      // The PAC stamps the next receipts but their answers are lost, then the server dies again.
      sim.control.addFault({ dropAfter: true, method: 'POST', path: '/v2/receipts', count: 0 });
      await proc.restart();
      const lost = await closeChecks(proc.current.url, 2, 850);
      await waitUntil(async () => lost.every((o) => receiptsAtPac(o.folio!).length === 1));
      await proc.current.kill9();
      sim.control.faults.length = 0;
      await proc.restart();
      const all = [...hung, ...lost];
      await waitUntil(
        async () =>
          (await rows(all.map((o) => o.id))).every((r) => r.state === 'emitido') &&
          (await rows(all.map((o) => o.id))).length === all.length,
      );
      for (const o of all) {
        const atPac = receiptsAtPac(o.folio!);
        expect(atPac).toHaveLength(1);
        expect(atPac[0]!.totalCents).toBe(o.total - o.tip);
      }
      const ours = await rows(all.map((o) => o.id));
      expect(ours.map((r) => r.pac_receipt_id).sort()).toEqual(all.map((o) => receiptsAtPac(o.folio!)[0]!.id).sort());
    },
  );
});
