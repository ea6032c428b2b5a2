import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Product, TicketsPage } from '@comanda/contract';
import { testDatabaseKinds, type ApiClient, type TestServerOptions } from '../src/testing/index.ts';
import { serverForSuite } from '../src/testing/suite.ts';
import { startInvoicingSimulator, type InvoicingSimulator } from '../src/invoicing/simulator/server.ts';
import { invoicingService } from '../src/model/invoicing/invoicing-service.ts';
import { sendDue } from '../src/model/invoicing/receipt-queue.ts';

const key = () => ({ 'idempotency-key': `k-${randomUUID()}` });

export async function waitUntil(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A receipt at the PAC for every paid check, exactly once, keyed by its folio: made after the
 * close by the queue, kept while the PAC is down, never made twice when an answer is lost.
 * The server talks to the simulator through the official SDK, as it would to Facturapi.
 */
describe.each(testDatabaseKinds())('receipts of paid checks on %s', (kind) => {
  let sim: InvoicingSimulator;
  let admin: ApiClient;
  let waiter: ApiClient;
  let tableNumber = 700;
  beforeAll(async () => {
    sim = await startInvoicingSimulator({ apiKey: 'sk_test_invoicing_suite' });
  });
  afterAll(() => sim?.close());
  afterEach(() => {
    sim.control.faults.length = 0;
  });
  // Read when the suite's server starts, after the simulator above.
  const opts: TestServerOptions = {
    get env() {
      return { FACTURAPI_KEY: sim.apiKey, FACTURAPI_BASE_URL: sim.apiUrl, INVOICING_RETRY_MS: '20', INVOICING_RETRY_MAX_MS: '100' };
    },
  };
  const suite = serverForSuite(kind, opts, async (server) => {
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
  });
  const db = () => suite.server.ctx.db.db;

  /** A check opened, served and paid in cash with a 10 % tip. */
  async function paidCheck(): Promise<Order> {
    const products = (await admin.get<{ products: Product[] }>('/api/products')).body.products.filter((p) => p.available);
    const table = (await admin.post<{ table: { id: string } }>('/api/tables', { number: ++tableNumber }, key())).body.table;
    let order = (await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`, {}, key())).body.order;
    for (const [i, quantity] of [
      [0, 2],
      [3, 1],
    ] as const)
      order = (await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: products[i]!.id, quantity }, key())).body
        .order;
    for (const item of order.items) await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { status: 'entregado' }, key());
    const closed = await waiter.post<{ order: Order }>(
      `/api/orders/${order.id}/close`,
      { method: 'efectivo', pin: suite.server.users.waiter.pin, tipBps: 1000, peopleCount: 2, receivedAmount: 100_000_00 },
      key(),
    );
    expect(closed.status).toBe(200);
    return closed.body.order;
  }
  const rowsOf = (ids: string[]) => db().selectFrom('invoice_receipts').selectAll().where('order_id', 'in', ids).execute();
  const simReceipts = (folio: number) => [...sim.store.receipts.values()].filter((r) => r.folio_number === folio);

  it('issues one receipt per paid check right after the close, its total what the check charged without the tip', async () => {
    const order = await paidCheck();
    await waitUntil(async () => (await rowsOf([order.id]))[0]?.state === 'emitido');
    const [row] = await rowsOf([order.id]);
    const [receipt] = simReceipts(order.folio!);
    expect(receipt).toBeDefined();
    expect(receipt!.totalCents).toBe(order.total - order.tip);
    expect(Number(row!.total)).toBe(order.total - order.tip);
    expect(row).toMatchObject({ pac_receipt_id: receipt!.id, receipt_key: receipt!.key, self_invoice_url: receipt!.self_invoice_url });
    expect(receipt!.payment_form).toBe('01');
    expect(receipt!.idempotency_key).toBe(`comanda-folio-${order.folio}`);
    // The tickets' history shows it, with the page and key for the QR.
    const page = await admin.get<TicketsPage>('/api/tickets');
    const ticket = page.body.tickets.find((t) => t.id === order.id);
    expect(ticket?.invoicing).toMatchObject({ state: 'emitido', selfInvoiceUrl: receipt!.self_invoice_url, receiptKey: receipt!.key });
  });

  it('keeps every receipt queued while the PAC is down all night, then issues each once', async () => {
    sim.control.addFault({ status: 503, path: '/v2/receipts', count: 0 });
    const orders: Order[] = [];
    for (let i = 0; i < 6; i++) orders.push(await paidCheck());
    const ids = orders.map((o) => o.id);
    await waitUntil(async () => {
      const rows = await rowsOf(ids);
      return rows.length === ids.length && rows.every((r) => r.attempts >= 2);
    });
    expect((await rowsOf(ids)).map((r) => r.state)).toEqual(ids.map(() => 'pendiente'));
    expect((await rowsOf(ids)).every((r) => r.last_error === 'Error simulado del PAC')).toBe(true);
    expect(orders.flatMap((o) => simReceipts(o.folio!))).toHaveLength(0);
    // Morning: the PAC is back.
    sim.control.faults.length = 0;
    await waitUntil(async () => (await rowsOf(ids)).every((r) => r.state === 'emitido'));
    for (const o of orders) expect(simReceipts(o.folio!).map((r) => r.totalCents)).toEqual([o.total - o.tip]);
    const page = await admin.get<TicketsPage>('/api/tickets');
    expect(page.body.tickets.filter((t) => ids.includes(t.id)).map((t) => t.invoicing?.state)).toEqual(ids.map(() => 'emitido'));
  });

  it('makes no second receipt when the PAC stamped one and its answer was lost', async () => {
    sim.control.addFault({ dropAfter: true, method: 'POST', path: '/v2/receipts' });
    const order = await paidCheck();
    await waitUntil(async () => (await rowsOf([order.id]))[0]?.state === 'emitido');
    const posts = sim.control.calls.filter(
      (c) => c.method === 'POST' && c.path === '/v2/receipts' && (c.body as { folio_number?: number }).folio_number === order.folio,
    );
    expect(posts.length).toBeGreaterThanOrEqual(2);
    expect(simReceipts(order.folio!)).toHaveLength(1);
    expect((await rowsOf([order.id]))[0]!.pac_receipt_id).toBe(simReceipts(order.folio!)[0]!.id);
  });

  it('never sends the same check twice when several senders (processes) work the queue at once', async () => {
    const service = invoicingService(suite.server.ctx)!;
    sim.control.addFault({ status: 503, path: '/v2/receipts', count: 0 });
    const orders: Order[] = [];
    for (let i = 0; i < 5; i++) orders.push(await paidCheck());
    const ids = orders.map((o) => o.id);
    await waitUntil(async () => (await rowsOf(ids)).length === ids.length);
    sim.control.faults.length = 0;
    sim.control.addFault({ delayMs: 40, path: '/v2/receipts', count: 0 });
    // Two more senders beside the server's own worker, as other processes on one database would be.
    const timing = { ...service.worker.timing, retryMs: 1 };
    await Promise.all([
      sendDue(suite.server.ctx.db, service.pac, timing, Date.now),
      sendDue(suite.server.ctx.db, service.pac, timing, Date.now),
    ]);
    await waitUntil(async () => (await rowsOf(ids)).every((r) => r.state === 'emitido'));
    sim.control.faults.length = 0;
    for (const o of orders) expect(simReceipts(o.folio!)).toHaveLength(1);
    // No check was claimed by two senders: each was sent once (the refused calls of the night are not served, nor logged).
    const folios = sim.control.calls
      .filter((c) => c.method === 'POST' && c.path === '/v2/receipts')
      .map((c) => (c.body as { folio_number?: number }).folio_number);
    for (const o of orders) expect(folios.filter((f) => f === o.folio)).toHaveLength(1);
  });
});
